#ifndef STRATA_CLIBXML2_SHIM_H
#define STRATA_CLIBXML2_SHIM_H

// libxml2's headers pull in ICU when it was built with it; ICU's types clash
// with the ICU that Foundation carries, so switch that part off first.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>

#endif
