// libxml2, loaded on the first use (see include/CLibXML2.h).
//
// Each wrapper calls the function of the same name without the `strata_`
// prefix, looked up once (CLibraryLoader). The library is opened by its soname,
// the one the linker would have recorded, so the same libxml2 package
// serves it.

#include "CLibXML2.h"

#include <CLibraryLoader.h>
#include <pthread.h>
#include <string.h>

#define STRATA_XML_FUNCTIONS(X) \
    X(void, xmlInitParser, (void)) \
    X(xmlParserCtxtPtr, xmlNewParserCtxt, (void)) \
    X(xmlParserCtxtPtr, xmlCreatePushParserCtxt, \
      (xmlSAXHandlerPtr, void *, const char *, int, const char *)) \
    X(void, xmlFreeParserCtxt, (xmlParserCtxtPtr)) \
    X(int, xmlCtxtUseOptions, (xmlParserCtxtPtr, int)) \
    X(xmlDocPtr, xmlCtxtReadMemory, \
      (xmlParserCtxtPtr, const char *, int, const char *, const char *, int)) \
    X(int, xmlParseChunk, (xmlParserCtxtPtr, const char *, int, int)) \
    X(void, xmlStopParser, (xmlParserCtxtPtr)) \
    X(void, xmlFreeDoc, (xmlDocPtr)) \
    X(xmlNodePtr, xmlDocGetRootElement, (const xmlDoc *)) \
    X(long, xmlGetLineNo, (const xmlNode *)) \
    X(void, xmlFreeEnumeration, (xmlEnumerationPtr))

STRATA_LIBRARY(library, STRATA_XML_FUNCTIONS, "libxml2.so.2",
               "libxml2 (install the libxml2 package)")

const char *strata_xml_load_error(void) {
    return library_load_error();
}

void strata_xmlInitParser(void) {
    if (library_load_error() == NULL) library.xmlInitParser();
}

xmlParserCtxtPtr strata_xmlNewParserCtxt(void) {
    return library_load_error() == NULL ? library.xmlNewParserCtxt() : NULL;
}

xmlParserCtxtPtr strata_xmlCreatePushParserCtxt(
    xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename) {
    return library_load_error() == NULL
               ? library.xmlCreatePushParserCtxt(sax, user_data, chunk, size, filename)
               : NULL;
}

// Every other function takes a context, document, node or name that a
// parse made, so the library is loaded by then.
void strata_xmlFreeParserCtxt(xmlParserCtxtPtr ctxt) { library.xmlFreeParserCtxt(ctxt); }

int strata_xmlCtxtUseOptions(xmlParserCtxtPtr ctxt, int options) {
    return library.xmlCtxtUseOptions(ctxt, options);
}

xmlDocPtr strata_xmlCtxtReadMemory(
    xmlParserCtxtPtr ctxt, const char *buffer, int size, const char *URL, const char *encoding,
    int options) {
    return library.xmlCtxtReadMemory(ctxt, buffer, size, URL, encoding, options);
}

int strata_xmlParseChunk(xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate) {
    return library.xmlParseChunk(ctxt, chunk, size, terminate);
}

void strata_xmlStopParser(xmlParserCtxtPtr ctxt) { library.xmlStopParser(ctxt); }

void strata_xmlFreeDoc(xmlDocPtr cur) { library.xmlFreeDoc(cur); }

xmlNodePtr strata_xmlDocGetRootElement(const xmlDoc *doc) {
    return library.xmlDocGetRootElement(doc);
}

long strata_xmlGetLineNo(const xmlNode *node) { return library.xmlGetLineNo(node); }

// The two string functions are libxml2's in meaning but need nothing of it: a caller holding
// names of its own (the name table's tests) calls them before any parse has loaded the library,
// and a table of pointers not yet filled would send it to address 0.
int strata_xmlStrlen(const xmlChar *str) { return str == NULL ? 0 : (int)strlen((const char *)str); }

int strata_xmlStrEqual(const xmlChar *str1, const xmlChar *str2) {
    if (str1 == str2) return 1;
    if (str1 == NULL || str2 == NULL) return 0;
    return strcmp((const char *)str1, (const char *)str2) == 0;
}

void strata_xmlFreeEnumeration(xmlEnumerationPtr cur) { library.xmlFreeEnumeration(cur); }
