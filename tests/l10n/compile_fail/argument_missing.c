/* Compile-fail: every placeholder of the source text is an argument; one left out does not compile. */
#include "text.h"

int greet_anonymously(const tl_l10n *text, char *buf, size_t size);
int greet_anonymously(const tl_l10n *text, char *buf, size_t size)
{
#ifdef TL_EXPECT_FAIL
    return (int)text_Greeting(text, buf, size, 3); /* EXPECTED-ERROR arguments */
#else
    return (int)text_Greeting(text, buf, size, "", 3);
#endif
}
