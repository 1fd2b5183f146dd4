/* Compile-fail: {score:int} takes an integer; a string is refused in C (the macro's check) and C++. */
#include "text.h"

int show_score(const tl_l10n *text, char *buf, size_t size);
int show_score(const tl_l10n *text, char *buf, size_t size)
{
#ifdef TL_EXPECT_FAIL
    return (int)text_Score(text, buf, size, "42"); /* EXPECTED-ERROR placeholder_wants_an_integer */
#else
    return (int)text_Score(text, buf, size, 42);
#endif
}
