/* Compile-fail: {name:str} takes a char string, not bytes of another type. */
#include "text.h"

int greet_bytes(const tl_l10n *text, char *buf, size_t size, const unsigned char *name,
                const char *plain);
int greet_bytes(const tl_l10n *text, char *buf, size_t size, const unsigned char *name,
                const char *plain)
{
#ifdef TL_EXPECT_FAIL
    (void)plain;
    return (int)text_Greeting(text, buf, size, name, 3); /* EXPECTED-ERROR placeholder_wants_a_char_string */
#else
    (void)name;
    return (int)text_Greeting(text, buf, size, plain, 3);
#endif
}
