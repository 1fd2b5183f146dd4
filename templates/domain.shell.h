{BANNER}
#ifndef {GUARD}
#define {GUARD}

#include <stddef.h>
#include <stdint.h>
{INCLUDES}
{DEPRECATION_MACRO}
{DOMAIN_DOC}
typedef enum {DOMAIN_LOWER} {
{DOMAIN_SENTINEL}{DOMAIN_ENTRIES}
} {DOMAIN_LOWER};

/* Number of live entries. */
#define {DOMAIN_UPPER}_COUNT {DOMAIN_COUNT}
{DOMAIN_SPAN}
/* X-macro of the live entries: X(enumerator, name). */
#define {DOMAIN_UPPER}_LIST(X) \
{DOMAIN_XMACRO}

{DOMAIN_LOOKUPS}{DOMAIN_EVENTS}
#endif /* {GUARD} */
