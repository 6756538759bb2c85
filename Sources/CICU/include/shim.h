#ifndef STRATA_CICU_SHIM_H
#define STRATA_CICU_SHIM_H

// The ICU regular expression calls Strata makes, with plain C types only.
//
// Why not a system library that includes <unicode/uregex.h> as CSQLite does
// with sqlite3.h: Foundation on Linux carries its own ICU (module
// _FoundationICU, a newer version whose symbols are prefixed swift_), and
// Clang refuses two modules defining `enum UErrorCode` differently. So ICU's
// headers are included only in shim.c, compiled on its own, and Swift sees
// the declarations below. Debian's ICU versions its symbols (uregex_open is a
// macro for uregex_open_72); shim.c's calls go through those macros, so the
// names here stay the same whatever the ICU version.

#include <stdint.h>

/// An ICU `URegularExpression *`.
typedef struct strata_icu_regex strata_icu_regex;

/// What a call did, mapped from ICU's `UErrorCode`.
typedef enum strata_icu_status {
    STRATA_ICU_OK = 0,
    /// The pattern does not compile; the parse place is set.
    STRATA_ICU_INVALID_PATTERN = 1,
    /// `U_REGEX_TIME_OUT`: the match hit the time limit.
    STRATA_ICU_TIME_OUT = 2,
    /// `U_REGEX_STACK_OVERFLOW`: the match hit the backtracking stack limit.
    STRATA_ICU_STACK_OVERFLOW = 3,
    /// Any other failure; `strata_icu_error_name` says which.
    STRATA_ICU_FAILED = 4,
} strata_icu_status;

/// The outcome of a call: the status, ICU's error code (for its name) and,
/// for a pattern that does not compile, ICU's line and offset.
typedef struct strata_icu_result {
    strata_icu_status status;
    int32_t code;
    int32_t line;
    int32_t offset;
} strata_icu_result;

/// `uregex_open` of a UTF-16 pattern; `case_insensitive` sets
/// `UREGEX_CASE_INSENSITIVE`. Returns NULL on failure.
strata_icu_regex *strata_icu_regex_open(
    const uint16_t *pattern, int32_t length, int case_insensitive, strata_icu_result *result);

/// `uregex_clone`; NULL on failure.
strata_icu_regex *strata_icu_regex_clone(const strata_icu_regex *regex, strata_icu_result *result);

/// `uregex_close`.
void strata_icu_regex_close(strata_icu_regex *regex);

/// `uregex_setTimeLimit` and `uregex_setStackLimit`.
void strata_icu_regex_set_limits(
    strata_icu_regex *regex, int32_t time_limit, int32_t stack_limit, strata_icu_result *result);

/// `uregex_setText`: ICU keeps the pointer, which must stay valid while the
/// text is searched.
void strata_icu_regex_set_text(
    strata_icu_regex *regex, const uint16_t *text, int32_t length, strata_icu_result *result);

/// `uregex_matches` from the start: 1 when the whole text matches.
int strata_icu_regex_matches(strata_icu_regex *regex, strata_icu_result *result);

/// `uregex_find` from `start` (`start` >= 0) or `uregex_findNext` (`start`
/// < 0): 1 when a match was found.
int strata_icu_regex_find(strata_icu_regex *regex, int32_t start, strata_icu_result *result);

/// `uregex_groupCount`.
int32_t strata_icu_regex_group_count(strata_icu_regex *regex, strata_icu_result *result);

/// `uregex_start` and `uregex_end` of `group` of the current match, in
/// UTF-16 units; -1 when the group took no part.
void strata_icu_regex_group_range(
    strata_icu_regex *regex, int32_t group, int32_t *start, int32_t *end,
    strata_icu_result *result);

/// `u_errorName` of an ICU error code.
const char *strata_icu_error_name(int32_t code);

#endif
