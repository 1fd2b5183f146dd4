/* Only this file includes vault_fields.h: editing a Vault.Fields injector recompiles it alone. */
#include <stdio.h>

#include "vault_fields.h"

void print_fields(void);
void print_fields(void)
{
#define PRINT(enumerator, name) printf("field %-10s %10u\n", #name, (unsigned)(uint32_t)(enumerator));
    VAULT_FIELDS_LIST(PRINT)
#undef PRINT
}
