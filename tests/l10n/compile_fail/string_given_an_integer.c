/* Compile-fail: {name:str} takes a char string; an integer is refused in C (the macro's check) and C++. */
#include "text.h"

int greet(const tl_l10n *text, char *buf, size_t size);
int greet(const tl_l10n *text, char *buf, size_t size)
{
#ifdef TL_EXPECT_FAIL
    return (int)text_Greeting(text, buf, size, 7, 3); /* EXPECTED-ERROR placeholder_wants_a_char_string */
#else
    return (int)text_Greeting(text, buf, size, "Ann", 3);
#endif
}
