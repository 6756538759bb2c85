#ifndef STRATA_CLIBXML2_H
#define STRATA_CLIBXML2_H

// libxml2, loaded on the first document parsed rather than linked: it brings
// ICU (libicuuc, libicudata) and liblzma, which cost every command about
// 0.6 ms at start-up, and most commands read no XML.
//
// libxml2's own headers give the types, constants and macros; `libxml/`
// beside this file links to Debian's /usr/include/libxml2/libxml (libxml2-dev),
// so that no include flag is needed: a package whose targets carry unsafe
// flags cannot be a dependency, and a system library's pkg-config entry would
// link the library again. The functions are called through the strata_
// wrappers below, which look each one up once with dlsym; calling libxml2's
// own names fails to link, by design.

// libxml2's headers pull in ICU when it was built with it; ICU's types clash
// with the ICU that Foundation carries, so switch that part off first.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

/// NULL once libxml2 is loaded (loading it if needed); otherwise why it
/// could not be, for an error message.
const char *strata_xml_load_error(void);

// The calls Strata makes; each behaves as libxml2's function of the same
// name without the prefix. The ones that make a context or initialise the
// library load it first (and return NULL or do nothing when it cannot be
// loaded); the others take what those returned, so it is loaded by then,
// except xmlStrlen and xmlStrEqual, plain string functions that need no
// library (a test calls them before any parse).
void strata_xmlInitParser(void);
xmlParserCtxtPtr strata_xmlNewParserCtxt(void);
xmlParserCtxtPtr strata_xmlCreatePushParserCtxt(
    xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename);
void strata_xmlFreeParserCtxt(xmlParserCtxtPtr ctxt);
int strata_xmlCtxtUseOptions(xmlParserCtxtPtr ctxt, int options);
xmlDocPtr strata_xmlCtxtReadMemory(
    xmlParserCtxtPtr ctxt, const char *buffer, int size, const char *URL, const char *encoding,
    int options);
int strata_xmlParseChunk(xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate);
void strata_xmlStopParser(xmlParserCtxtPtr ctxt);
void strata_xmlFreeDoc(xmlDocPtr cur);
xmlNodePtr strata_xmlDocGetRootElement(const xmlDoc *doc);
long strata_xmlGetLineNo(const xmlNode *node);
int strata_xmlStrlen(const xmlChar *str);
int strata_xmlStrEqual(const xmlChar *str1, const xmlChar *str2);
void strata_xmlFreeEnumeration(xmlEnumerationPtr cur);

#endif
