/* Compile-fail: the getter of a generated collection field takes a const vault and gives a
 * read-only view, so a static const instance (in read-only memory) cannot be changed through it;
 * changing a collection takes the _edit_ accessor, which needs a vault that is not const. */
#include "things_data.h"

int change_a_const_instance(every_vault *live);
int change_a_const_instance(every_vault *live)
{
    const every_vault *authored = &things_instances[0];
    int changed = every_vault_Seen_set_add(every_vault_edit_Seen(live), 5);
#ifdef TL_EXPECT_FAIL
    changed += every_vault_Seen_set_add(every_vault_get_Seen(authored), 5); /* EXPECTED-ERROR every_vault_Seen_set_const */
#else
    changed += every_vault_Seen_set_const_contains(every_vault_get_Seen(authored), 5);
#endif
    return changed;
}
