#include "shim.h"

#include <CLibraryLoader.h>
#include <pthread.h>
#include <stdio.h>
#include <unicode/uregex.h>
#include <unicode/utypes.h>
#include <unicode/uvernum.h>

// ICU's i18n library is loaded on the first regular expression compiled, not
// linked: loading it costs every process over a millisecond at start-up, and
// most commands match no pattern. The names looked up are the versioned ones
// the headers' macros give (uregex_open is uregex_open_72 with ICU 72), and
// the library is the one of the headers' major version, as the linker would
// have recorded it.
#define STRATA_ICU_FUNCTIONS(X) \
    X(URegularExpression *, uregex_open, \
      (const UChar *, int32_t, uint32_t, UParseError *, UErrorCode *)) \
    X(URegularExpression *, uregex_clone, (const URegularExpression *, UErrorCode *)) \
    X(void, uregex_close, (URegularExpression *)) \
    X(void, uregex_setTimeLimit, (URegularExpression *, int32_t, UErrorCode *)) \
    X(void, uregex_setStackLimit, (URegularExpression *, int32_t, UErrorCode *)) \
    X(void, uregex_setText, (URegularExpression *, const UChar *, int32_t, UErrorCode *)) \
    X(UBool, uregex_matches, (URegularExpression *, int32_t, UErrorCode *)) \
    X(UBool, uregex_find, (URegularExpression *, int32_t, UErrorCode *)) \
    X(UBool, uregex_findNext, (URegularExpression *, UErrorCode *)) \
    X(int32_t, uregex_groupCount, (URegularExpression *, UErrorCode *)) \
    X(int32_t, uregex_start, (URegularExpression *, int32_t, UErrorCode *)) \
    X(int32_t, uregex_end, (URegularExpression *, int32_t, UErrorCode *)) \
    X(const char *, u_errorName, (UErrorCode))

#define STRATA_ICU_SONAME "libicui18n.so." STRATA_LIBRARY_TEXT(U_ICU_VERSION_MAJOR_NUM)
STRATA_LIBRARY(icu, STRATA_ICU_FUNCTIONS, STRATA_ICU_SONAME, "ICU (" STRATA_ICU_SONAME ")")
#undef STRATA_ICU_SONAME

/// Whether ICU is loaded (loading it on the first call).
static int strata_icu_ready(void) { return icu_load_error() == NULL; }

static void strata_icu_set(strata_icu_result *result, UErrorCode code) {
    result->code = (int32_t)code;
    if (U_SUCCESS(code)) {
        result->status = STRATA_ICU_OK;
    } else if (code == U_REGEX_TIME_OUT) {
        result->status = STRATA_ICU_TIME_OUT;
    } else if (code == U_REGEX_STACK_OVERFLOW) {
        result->status = STRATA_ICU_STACK_OVERFLOW;
    } else {
        result->status = STRATA_ICU_FAILED;
    }
}

strata_icu_regex *strata_icu_regex_open(
    const uint16_t *pattern, int32_t length, int case_insensitive, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    UParseError parse = {0};
    if (!strata_icu_ready()) {
        // strata_icu_error_name then gives the reason.
        result->code = (int32_t)U_MISSING_RESOURCE_ERROR;
        result->status = STRATA_ICU_FAILED;
        result->line = 0;
        result->offset = 0;
        return NULL;
    }
    uint32_t flags = case_insensitive ? UREGEX_CASE_INSENSITIVE : 0;
    URegularExpression *regex = icu.uregex_open((const UChar *)pattern, length, flags, &parse, &code);
    strata_icu_set(result, code);
    result->line = parse.line;
    result->offset = parse.offset;
    if (U_FAILURE(code)) {
        // A failed open may still have allocated the handle.
        if (regex != NULL) icu.uregex_close(regex);
        result->status = STRATA_ICU_INVALID_PATTERN;
        return NULL;
    }
    return (strata_icu_regex *)regex;
}

strata_icu_regex *strata_icu_regex_clone(const strata_icu_regex *regex, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    URegularExpression *clone = icu.uregex_clone((const URegularExpression *)regex, &code);
    strata_icu_set(result, code);
    if (U_FAILURE(code)) {
        if (clone != NULL) icu.uregex_close(clone);
        return NULL;
    }
    return (strata_icu_regex *)clone;
}

void strata_icu_regex_close(strata_icu_regex *regex) {
    icu.uregex_close((URegularExpression *)regex);
}

void strata_icu_regex_set_limits(
    strata_icu_regex *regex, int32_t time_limit, int32_t stack_limit, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    icu.uregex_setTimeLimit((URegularExpression *)regex, time_limit, &code);
    icu.uregex_setStackLimit((URegularExpression *)regex, stack_limit, &code);
    strata_icu_set(result, code);
}

void strata_icu_regex_set_text(
    strata_icu_regex *regex, const uint16_t *text, int32_t length, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    icu.uregex_setText((URegularExpression *)regex, (const UChar *)text, length, &code);
    strata_icu_set(result, code);
}

int strata_icu_regex_matches(strata_icu_regex *regex, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    UBool matched = icu.uregex_matches((URegularExpression *)regex, 0, &code);
    strata_icu_set(result, code);
    return U_SUCCESS(code) && matched;
}

int strata_icu_regex_find(strata_icu_regex *regex, int32_t start, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    UBool found = start >= 0 ? icu.uregex_find((URegularExpression *)regex, start, &code)
                             : icu.uregex_findNext((URegularExpression *)regex, &code);
    strata_icu_set(result, code);
    return U_SUCCESS(code) && found;
}

int32_t strata_icu_regex_group_count(strata_icu_regex *regex, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    int32_t count = icu.uregex_groupCount((URegularExpression *)regex, &code);
    strata_icu_set(result, code);
    return count;
}

void strata_icu_regex_group_range(
    strata_icu_regex *regex, int32_t group, int32_t *start, int32_t *end,
    strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    *start = icu.uregex_start((URegularExpression *)regex, group, &code);
    *end = icu.uregex_end((URegularExpression *)regex, group, &code);
    strata_icu_set(result, code);
}

const char *strata_icu_error_name(int32_t code) {
    return strata_icu_ready() ? icu.u_errorName((UErrorCode)code) : icu_load_error();
}
