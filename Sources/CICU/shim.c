#include "shim.h"

#include <unicode/uregex.h>
#include <unicode/utypes.h>

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
    uint32_t flags = case_insensitive ? UREGEX_CASE_INSENSITIVE : 0;
    URegularExpression *regex = uregex_open((const UChar *)pattern, length, flags, &parse, &code);
    strata_icu_set(result, code);
    result->line = parse.line;
    result->offset = parse.offset;
    if (U_FAILURE(code)) {
        // A failed open may still have allocated the handle.
        if (regex != NULL) uregex_close(regex);
        result->status = STRATA_ICU_INVALID_PATTERN;
        return NULL;
    }
    return (strata_icu_regex *)regex;
}

strata_icu_regex *strata_icu_regex_clone(const strata_icu_regex *regex, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    URegularExpression *clone = uregex_clone((const URegularExpression *)regex, &code);
    strata_icu_set(result, code);
    if (U_FAILURE(code)) {
        if (clone != NULL) uregex_close(clone);
        return NULL;
    }
    return (strata_icu_regex *)clone;
}

void strata_icu_regex_close(strata_icu_regex *regex) {
    uregex_close((URegularExpression *)regex);
}

void strata_icu_regex_set_limits(
    strata_icu_regex *regex, int32_t time_limit, int32_t stack_limit, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    uregex_setTimeLimit((URegularExpression *)regex, time_limit, &code);
    uregex_setStackLimit((URegularExpression *)regex, stack_limit, &code);
    strata_icu_set(result, code);
}

void strata_icu_regex_set_text(
    strata_icu_regex *regex, const uint16_t *text, int32_t length, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    uregex_setText((URegularExpression *)regex, (const UChar *)text, length, &code);
    strata_icu_set(result, code);
}

int strata_icu_regex_matches(strata_icu_regex *regex, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    UBool matched = uregex_matches((URegularExpression *)regex, 0, &code);
    strata_icu_set(result, code);
    return U_SUCCESS(code) && matched;
}

int strata_icu_regex_find(strata_icu_regex *regex, int32_t start, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    UBool found = start >= 0 ? uregex_find((URegularExpression *)regex, start, &code)
                             : uregex_findNext((URegularExpression *)regex, &code);
    strata_icu_set(result, code);
    return U_SUCCESS(code) && found;
}

int32_t strata_icu_regex_group_count(strata_icu_regex *regex, strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    int32_t count = uregex_groupCount((URegularExpression *)regex, &code);
    strata_icu_set(result, code);
    return count;
}

void strata_icu_regex_group_range(
    strata_icu_regex *regex, int32_t group, int32_t *start, int32_t *end,
    strata_icu_result *result) {
    UErrorCode code = U_ZERO_ERROR;
    *start = uregex_start((URegularExpression *)regex, group, &code);
    *end = uregex_end((URegularExpression *)regex, group, &code);
    strata_icu_set(result, code);
}

const char *strata_icu_error_name(int32_t code) {
    return u_errorName((UErrorCode)code);
}
