/* Compile-fail (C only: C++ converts a double to an integer parameter, -Wfloat-conversion warns):
   {score:int} takes an integer, so a double is refused by the macro's check. */
#include "text.h"

int show_ratio(const tl_l10n *text, char *buf, size_t size, double ratio);
int show_ratio(const tl_l10n *text, char *buf, size_t size, double ratio)
{
#ifdef TL_EXPECT_FAIL
    return (int)text_Score(text, buf, size, ratio); /* EXPECTED-ERROR placeholder_wants_an_integer C-ONLY */
#else
    return (int)text_Score(text, buf, size, (int64_t)ratio);
#endif
}
