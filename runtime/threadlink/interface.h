/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/interface.h -- the interface stack, selectables and interactables (the seed's Dextra).

   WHAT
   ----
   The seed's Dextra interfaces for C, drawn by whatever the game draws with. An interface is a
   game object with a vtable (boot, show, conceal, cancelled, sub-panel cancelled, confirm,
   discard, and an optional preprocessor of a stacking payload), registered once under a 32-bit
   id. The stack shows its top: stacking conceals the interface below (unless it is persistent),
   popping shows it again. An interface's selectables sit on a grid and are walked with
   directional navigation, confirmed and cancelled; the commands come from the game's input
   through a hook in the desc (glue: input.h's tl_input_pressed_mask over the Menu mode's
   actions), so this header includes no other service. While anything is stacked the Menu mode
   is active and Gameplay is not, through a second hook (input.h's tl_input_set_mode_active).
   Interactables are things in the world the player can use (a sign, a chest): a detector over
   fp.h positions (circles and boxes) tells which one is in range, and that one alone answers the
   single-provider event OnInteract.

   INCLUDE
   -------
       #include <threadlink/interface.h>
       #define TL_INTERFACE_IMPL              // or TL_IMPLEMENTATION (all modules), in one file
       #include <threadlink/interface.h>
   Includes only the core (api.h, log.h, events.h, fp.h). TL_MALLOC / TL_FREE override the
   allocator (both or neither).

   OVERRIDES
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)    default malloc / free; used by tl_interface_create and
                                     tl_interface_destroy only

   USE
   ---
       static uint32_t menu_commands(void *in) {      // the glue: the Menu mode's actions
           static const uint32_t actions[TL_INTERFACE_COMMAND_COUNT] = {
               DEXTRA_ACTIONS_U32(Dextra_Actions_Up), DEXTRA_ACTIONS_U32(Dextra_Actions_Down),
               DEXTRA_ACTIONS_U32(Dextra_Actions_Left), DEXTRA_ACTIONS_U32(Dextra_Actions_Right),
               DEXTRA_ACTIONS_U32(Dextra_Actions_Confirm), DEXTRA_ACTIONS_U32(Dextra_Actions_Back) };
           return tl_input_pressed_mask((tl_input *)in, actions, TL_INTERFACE_COMMAND_COUNT);
       }
       static void set_mode(void *in, uint32_t mode, bool active) {
           tl_input_set_mode_active((tl_input *)in, mode, active);
       }
       tl_interface_desc desc = {0};                 // zero: defaults (see tl_interface_desc)
       desc.registry = &registry;
       desc.commands = menu_commands;  desc.set_mode = set_mode;  desc.hooks_ctx = input;
       tl_interface *ui = tl_interface_create(&desc);
       tl_interface_register(ui, PAUSE_MENU, &pause_vtable, &pause, TL_INTERFACE_CANCELLABLE);
       tl_interface_add_selectable(ui, PAUSE_MENU, RESUME, 0, 0);
       tl_interface_add_selectable(ui, PAUSE_MENU, QUIT, 0, 1);
       tl_interface_stack(ui, PAUSE_MENU);           // Menu on, Gameplay off; shows it
       ... each frame, after tl_input_update: tl_interface_update(ui);
       tl_interface_interactable_desc sign = {0};
       sign.id = 7;  sign.interact = read_sign;  sign.ctx = game;
       sign.centre = tl_fpv2_make(tl_fp_from_int(12), tl_fp_from_int(3));
       sign.radius = tl_fp_from_int(2);
       tl_interface_interactable_add(ui, &sign);
       ... each simulated frame: tl_interface_detect(ui, player_position);
       if (interact_pressed) tl_interface_interact(ui, NULL);
       tl_interface_destroy(ui);                     // discards every interface

   THE STACK
   ---------
   - tl_interface_register boots the interface (vtable.boot) at once; tl_interface_destroy
     conceals what is stacked and discards every registered interface (vtable.discard), in
     registration order: the seed's Dextra discards its interfaces in its own discard. It does
     not switch the modes back (at shutdown the input module may be gone before it): a game that
     destroys its interfaces and goes on playing calls tl_interface_clear first.
   - tl_interface_stack(id) conceals the top (unless it is PERSISTENT), pushes the interface and
     shows it; tl_interface_stack_with(id, payload) first hands the payload to the interface's
     preprocess, which may refuse it (REFUSED, nothing changes). An interface is stacked at most
     once (ALREADY_STACKED).
   - tl_interface_pop_top conceals the top and removes it; the one below is shown again (if it
     was concealed). tl_interface_clear conceals every stacked interface, top first, and empties
     the stack. Interfaces outside the stack (registered, never stacked) are not touched.
   - tl_interface_cancel: the top must be CANCELLABLE (else NOT_CANCELLABLE, nothing happens):
     it is removed and concealed, its cancelled() runs, OnUICancelled(id) is published, and the
     interface below, now the top, gets sub_panel_cancelled() if it is cancellable, then is shown.
   - When the stack becomes non-empty, set_mode(Gameplay, false) then set_mode(Menu, true); when
     it empties, set_mode(Menu, false) then set_mode(Gameplay, true) (desc.menu_mode and
     desc.gameplay_mode; a NULL hook switches nothing).
   - Vtable functions (and listeners of its events) may stack, pop, cancel and clear; they must
     not destroy the stack. Such a call takes effect at once, and the call it interrupted then
     finishes from the stack as it is: the top is shown, a shown interface below it that is not
     persistent is concealed (a toast that pops itself in its conceal uncovers the one below,
     which the interface being stacked then conceals), the modes follow whether the stack is
     empty, and a newly stacked interface's selection is published only if it is still the top
     once shown. Inside tl_interface_destroy they are refused (DESTROYING, logged): nothing is
     shown and no mode switched after destroy began.

   SELECTABLES
   -----------
   Each has an id (non-zero) and a grid position (x grows right, y grows down) within its
   interface; the first enabled one added is selected. tl_interface_navigate(direction) moves
   the top interface's selection to the nearest enabled selectable that way (distance along the
   direction plus twice the distance across it; ties to the one added first), wrapping to the
   far side when none is that way (desc.no_wrap stops at the edge). Each change of the top
   interface's selection (navigation, tl_interface_select, a newly stacked interface's first
   selection) publishes OnUIElementSelected(interface, selectable). tl_interface_confirm calls
   the top's confirm(selected). tl_interface_update polls desc.commands once and applies its
   TL_INTERFACE_COMMAND_* bits: the directions, then confirm, then cancel.

   INTERACTABLES
   -------------
   - An interactable has an id (non-zero), an area (a circle, or a box by its half extents) and
     an interact function. tl_interface_detect(position) tests every area (in the order added,
     in fixed point: deterministic like the simulation): one the position left goes out of range
     (its OnInteract subscription is removed, OnInteractableOutOfRange(id) published), then one
     it entered comes in range: it subscribes to OnInteract and OnInteractableDetected(id) is
     published. OnInteract is a single-provider event: a second interactable in range at once is
     refused with an error (SECOND_INTERACTABLE, logged once while the same one is in range and
     the position stays in the second's area) and stays out of range, as the seed throws; so
     is one whose subscription the registry refuses (OUT_OF_MEMORY; INVALID_ARGUMENT when the
     registry's OnInteract is not the native event), events.h logging why.
   - tl_interface_interact publishes OnInteract: the interactable in range answers (its result
     in *answer); NOTHING_IN_RANGE when none does.
   - tl_interface_interactable_remove is its discard: in range, it leaves OnInteract and its
     OnInteractableOutOfRange is published.

   NATIVE EVENTS (natives/Iris.Events.Native.txt, after input.h's: ordinals 21..25)
   -------------
       OnUICancelled(uint32_t)                 the cancelled interface's id
       OnUIElementSelected(uint32_t, uint32_t) the interface's id, the selectable's id
       OnInteract() -> bool                    single provider: the interactable in range
       OnInteractableDetected(uint32_t)        the interactable's id
       OnInteractableOutOfRange(uint32_t)      the interactable's id
   A project whose Iris.Events domain had events of its own before these natives were shipped
   keeps their ordinals, and the natives get later ones: give desc.events from the generated
   enum (TL_INTERFACE_EVENTS_INIT(Iris_Events_), as examples/game does), not the native ordinals.

   RULES
   -----
   Capacities come from the desc and are allocated by tl_interface_create: nothing allocates
   after it. Main thread only; no global state.
*/
#if defined(TL_IMPLEMENTATION) && !defined(TL_INTERFACE_IMPL)
#define TL_INTERFACE_IMPL
#endif
#ifndef TL_INTERFACE_H
#define TL_INTERFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "log.h"
#define TL__FP_TYPES_ONLY /* the declarations name tl_fp and tl_fpv2, no function */
#include "fp.h"
#undef TL__FP_TYPES_ONLY

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/interface.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_interface tl_interface;

/* --- native events ------------------------------------------------------------------------------ */

typedef struct tl_interface_events {
    uint32_t cancelled;    /* OnUICancelled(uint32_t) */
    uint32_t selected;     /* OnUIElementSelected(uint32_t, uint32_t) */
    uint32_t interact;     /* OnInteract() -> bool */
    uint32_t detected;     /* OnInteractableDetected(uint32_t) */
    uint32_t out_of_range; /* OnInteractableOutOfRange(uint32_t) */
} tl_interface_events;
#define TL_INTERFACE_EVENTS_INIT(prefix) \
    { \
        prefix##OnUICancelled, prefix##OnUIElementSelected, prefix##OnInteract, \
            prefix##OnInteractableDetected, prefix##OnInteractableOutOfRange \
    }
/* Their native ordinals: after input.h's (tests/interface checks them against the natives). */
#define TL_INTERFACE_EVENTS_NATIVE \
    { 21, 22, 23, 24, 25 }
#define TL_INTERFACE_SIG_ID 0xfe1b43c4u       /* "(uint32_t)" */
#define TL_INTERFACE_SIG_SELECTED 0x43e461dbu /* "(uint32_t, uint32_t)" */
#define TL_INTERFACE_SIG_INTERACT 0x7bb02086u /* "()->bool" */
typedef void (*tl_interface_id_fn)(void *ctx, uint32_t id);
typedef void (*tl_interface_selected_fn)(void *ctx, uint32_t interface_id, uint32_t selectable);
typedef bool (*tl_interface_interact_fn)(void *ctx);

/* The native Dextra.InputModes values the stack switches by default (input.h's
   TL_INPUT_MODE_MENU and TL_INPUT_MODE_GAMEPLAY). */
#define TL_INTERFACE_MODE_GAMEPLAY 0x6765a775u
#define TL_INTERFACE_MODE_MENU 0x4e55ffa0u

/* --- results and diagnostics -------------------------------------------------------------------- */

#define TL_INTERFACE_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(OUT_OF_MEMORY, "out of memory") \
    X(UNKNOWN_INTERFACE, "no interface is registered under this id") \
    X(ALREADY_REGISTERED, "an interface is already registered under this id") \
    X(ALREADY_STACKED, "the interface is already stacked") \
    X(EMPTY, "nothing is stacked") \
    X(NOT_CANCELLABLE, "the top interface is not cancellable") \
    X(REFUSED, "the interface's preprocessor refused the payload") \
    X(UNKNOWN_SELECTABLE, "the interface has no such selectable") \
    X(NOTHING_SELECTED, "the top interface has no enabled selectable") \
    X(FULL, "a capacity of the desc is reached") \
    X(UNKNOWN_INTERACTABLE, "no interactable has this id") \
    X(SECOND_INTERACTABLE, "another interactable is in range: OnInteract has one provider") \
    X(NOTHING_IN_RANGE, "no interactable is in range") \
    X(NO_REGISTRY, "interactables need desc.registry (OnInteract)") \
    X(DESTROYING, "tl_interface_destroy is running: the stack no longer changes")
typedef enum tl_interface_result {
    TL_INTERFACE_OK = 0,
#define TL__INTERFACE_RESULT_ENUM(id, message) TL_INTERFACE_##id,
    TL_INTERFACE_RESULTS(TL__INTERFACE_RESULT_ENUM)
#undef TL__INTERFACE_RESULT_ENUM
        TL_INTERFACE_RESULT_END_
} tl_interface_result;

#define TL_INTERFACE_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(UNKNOWN_INTERFACE, TL_LOG_LEVEL_ERROR, "%s: no interface %u") \
    X(ALREADY_REGISTERED, TL_LOG_LEVEL_ERROR, "register: interface %u is already registered") \
    X(ALREADY_STACKED, TL_LOG_LEVEL_ERROR, "stack: interface %u is already stacked") \
    X(REFUSED, TL_LOG_LEVEL_WARNING, "stack: interface %u refused its payload") \
    X(UNKNOWN_SELECTABLE, TL_LOG_LEVEL_ERROR, "%s: interface %u has no selectable %u") \
    X(FULL, TL_LOG_LEVEL_ERROR, "%s: more than %u") \
    X(UNKNOWN_INTERACTABLE, TL_LOG_LEVEL_ERROR, "%s: no interactable %u") \
    X(SECOND_INTERACTABLE, TL_LOG_LEVEL_ERROR, \
      "interactable %u in range while %u is: OnInteract has one provider, %u stays out of range") \
    X(NO_REGISTRY, TL_LOG_LEVEL_ERROR, "interactable %u: desc.registry is required (OnInteract)") \
    X(DESTROYING, TL_LOG_LEVEL_ERROR, "%s: refused inside tl_interface_destroy")
#define TL_INTERFACE_LOG_BASE 0xb00u
typedef enum tl_interface_log_item {
    TL_INTERFACE_LOG_NONE_ = TL_INTERFACE_LOG_BASE - 1,
#define TL__INTERFACE_LOG_ENUM(id, level, message) TL_INTERFACE_LOG_##id,
    TL_INTERFACE_LOG_ITEMS(TL__INTERFACE_LOG_ENUM)
#undef TL__INTERFACE_LOG_ENUM
        TL_INTERFACE_LOG_END_
} tl_interface_log_item;

/* --- interfaces --------------------------------------------------------------------------------- */

/* The seed's marker interfaces, as flags. */
#define TL_INTERFACE_CANCELLABLE 0x1u /* receives cancel and sub-panel cancel */
#define TL_INTERFACE_PERSISTENT 0x2u  /* not concealed when overlaid */

/* Every function gets the interface's `self`; each may be NULL. */
typedef struct tl_interface_vtable {
    void (*boot)(void *self, tl_interface *ui, uint32_t id); /* at registration */
    void (*show)(void *self);                                /* it is the top again, or visible */
    void (*conceal)(void *self);
    void (*cancelled)(void *self);           /* cancellable: it was cancelled (and popped) */
    void (*sub_panel_cancelled)(void *self); /* cancellable: the one stacked on it was */
    void (*confirm)(void *self, uint32_t selectable);
    void (*discard)(void *self); /* at tl_interface_destroy */
    bool (*preprocess)(void *self,
                       const void *payload); /* tl_interface_stack_with; false refuses */
} tl_interface_vtable;

/* Commands, as bits of what desc.commands returns (the order of a pressed-mask's actions). */
typedef enum tl_interface_command {
    TL_INTERFACE_UP = 0,
    TL_INTERFACE_DOWN = 1,
    TL_INTERFACE_LEFT = 2,
    TL_INTERFACE_RIGHT = 3,
    TL_INTERFACE_CONFIRM = 4,
    TL_INTERFACE_CANCEL = 5,
    TL_INTERFACE_COMMAND_COUNT = 6
} tl_interface_command;

/* --- interactables ------------------------------------------------------------------------------ */

typedef enum tl_interface_shape {
    TL_INTERFACE_CIRCLE = 0, /* centre, radius */
    TL_INTERFACE_BOX = 1     /* centre, half_extents */
} tl_interface_shape;

typedef struct tl_interface_interactable_desc {
    uint32_t id;                              /* non-zero */
    bool (*interact)(void *ctx, uint32_t id); /* its answer to OnInteract */
    void *ctx;
    uint32_t shape; /* tl_interface_shape */
    tl_fpv2 centre;
    tl_fp radius;
    tl_fpv2 half_extents;
} tl_interface_interactable_desc;

/* --- the module --------------------------------------------------------------------------------- */

/* Zero-initialised: no events published (no interactables then), native ordinals, stderr
   logging, 16 interfaces with 32 selectables each, 64 interactables, no command hook, no mode
   hook, the native Menu and Gameplay modes, navigation that wraps. */
typedef struct tl_interface_desc {
    tl_events *registry;
    const tl_interface_events *events; /* NULL: TL_INTERFACE_EVENTS_NATIVE */
    const tl_logger *logger;
    uint32_t max_interfaces;
    uint32_t max_selectables; /* per interface */
    uint32_t max_interactables;
    /* Bits 1 << TL_INTERFACE_UP ... of the commands given since the last update. */
    uint32_t (*commands)(void *ctx);
    void (*set_mode)(void *ctx, uint32_t mode, bool active);
    void *hooks_ctx;
    uint32_t menu_mode, gameplay_mode; /* 0: TL_INTERFACE_MODE_MENU, TL_INTERFACE_MODE_GAMEPLAY */
    bool no_wrap;
} tl_interface_desc;

/* NULL on a bad desc or no memory (logged). */
TL_API tl_interface *tl_interface_create(const tl_interface_desc *desc);
/* Conceals what is stacked, discards every interface, removes every interactable, frees; the
   modes are not switched back (tl_interface_clear first does). A stack, pop, cancel or clear
   from its vtable calls is refused (TL_INTERFACE_DESTROYING). */
TL_API void tl_interface_destroy(tl_interface *ui);
TL_API tl_interface_result tl_interface_last_result(const tl_interface *ui);
TL_API const char *tl_interface_result_message(tl_interface_result result);

TL_API tl_interface_result tl_interface_register(tl_interface *ui, uint32_t id,
                                                 const tl_interface_vtable *vtable, void *self,
                                                 uint32_t flags);
TL_API tl_interface_result tl_interface_stack(tl_interface *ui, uint32_t id);
TL_API tl_interface_result tl_interface_stack_with(tl_interface *ui, uint32_t id,
                                                   const void *payload);
TL_API tl_interface_result tl_interface_pop_top(tl_interface *ui);
TL_API tl_interface_result tl_interface_cancel(tl_interface *ui);
TL_API void tl_interface_clear(tl_interface *ui);
TL_API bool tl_interface_is_top(const tl_interface *ui, uint32_t id);
TL_API bool tl_interface_is_stacked(const tl_interface *ui, uint32_t id);
TL_API uint32_t tl_interface_top(const tl_interface *ui); /* 0 when empty */
TL_API uint32_t tl_interface_depth(const tl_interface *ui);

/* Selectables. */
TL_API tl_interface_result tl_interface_add_selectable(tl_interface *ui, uint32_t id,
                                                       uint32_t selectable, int32_t x, int32_t y);
TL_API tl_interface_result tl_interface_set_enabled(tl_interface *ui, uint32_t id,
                                                    uint32_t selectable, bool enabled);
TL_API tl_interface_result tl_interface_select(tl_interface *ui, uint32_t id, uint32_t selectable);
TL_API uint32_t tl_interface_selected(const tl_interface *ui, uint32_t id); /* 0: none */
TL_API tl_interface_result tl_interface_navigate(tl_interface *ui, tl_interface_command direction);
TL_API tl_interface_result tl_interface_confirm(tl_interface *ui);
/* Polls desc.commands and applies them (see SELECTABLES). */
TL_API void tl_interface_update(tl_interface *ui);

/* Interactables. */
TL_API tl_interface_result tl_interface_interactable_add(tl_interface *ui,
                                                         const tl_interface_interactable_desc *d);
TL_API tl_interface_result tl_interface_interactable_remove(tl_interface *ui, uint32_t id);
TL_API tl_interface_result tl_interface_interactable_move(tl_interface *ui, uint32_t id,
                                                          tl_fpv2 centre);
/* OK, or the first refusal (SECOND_INTERACTABLE, OUT_OF_MEMORY...) met while the rest were still
   tested. */
TL_API tl_interface_result tl_interface_detect(tl_interface *ui, tl_fpv2 position);
TL_API tl_interface_result tl_interface_interact(tl_interface *ui, bool *answer);
TL_API uint32_t tl_interface_in_range(const tl_interface *ui); /* 0: none */

#ifdef __cplusplus
}
#endif
#endif /* TL_INTERFACE_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_INTERFACE_IMPL) && !defined(TL__INTERFACE_IMPLEMENTED)
#define TL__INTERFACE_IMPLEMENTED
/* Again here, for the usage block's order (include, define, include). */
#include "log.h"
#include "events.h"
#include "fp.h"
#include <stdarg.h>
#include <string.h>
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__INTERFACE_MODULE "Interface"
#define TL__INTERFACE_NONE UINT32_MAX

typedef struct tl__interface_selectable {
    uint32_t id;
    int32_t x, y;
    bool enabled;
} tl__interface_selectable;

typedef struct tl__interface_entry {
    uint32_t id, flags;
    const tl_interface_vtable *vt;
    void *self;
    tl__interface_selectable *selectables; /* max_selectables of them */
    uint32_t selectable_count, selected;   /* selected: index + 1, 0 for none */
    bool shown, stacked;
} tl__interface_entry;

typedef struct tl__interface_interactable {
    tl_interface_interactable_desc d;
    bool used, in_range;
    uint32_t refused_for; /* the one in range when it was refused (logged once), or 0 */
} tl__interface_interactable;

struct tl_interface {
    tl_events *registry;
    tl_interface_events events;
    tl_logger logger;
    tl__interface_entry *entries;
    uint32_t entry_count, max_interfaces, max_selectables;
    tl__interface_selectable *pool;
    uint32_t *stack, depth; /* entry indices, bottom first */
    tl__interface_interactable *interactables;
    uint32_t max_interactables;
    uint32_t (*commands)(void *ctx);
    void (*set_mode)(void *ctx, uint32_t mode, bool active);
    void *hooks_ctx;
    uint32_t menu_mode, gameplay_mode;
    bool wrap;
    bool menu_on;      /* the modes were last switched for a non-empty stack */
    bool destroying;   /* inside tl_interface_destroy: the stack no longer changes */
    uint32_t announce; /* entry index + 1 of a newly stacked interface not yet told, or 0 */
    tl_interface_result result;
};

TL_LOG_TABLE_FN(tl__interface_log, TL_INTERFACE_LOG_ITEMS, TL_INTERFACE_LOG_BASE,
                TL__INTERFACE_MODULE)

static tl_interface_result tl__interface_set(tl_interface *ui, tl_interface_result r) {
    if (ui) ui->result = r;
    return r;
}

TL_API tl_interface_result tl_interface_last_result(const tl_interface *ui) {
    return ui ? ui->result : TL_INTERFACE_INVALID_ARGUMENT;
}

TL_RESULT_MESSAGE_FN(tl_interface_result_message, tl_interface_result, TL_INTERFACE_RESULTS)

/* --- create and destroy ------------------------------------------------------------------------- */

static void *tl__interface_alloc(tl_interface *ui, size_t count, size_t size, const char *what) {
    void *p = TL_MALLOC(count ? count * size : 1);
    if (!p) tl__interface_log(&ui->logger, TL_INTERFACE_LOG_OUT_OF_MEMORY, what);
    else memset(p, 0, count ? count * size : 1);
    return p;
}

/* The desc's defaults, applied in one place. */
static void tl__interface_apply_desc(tl_interface *ui, const tl_interface_desc *desc) {
    static const tl_interface_events natives = TL_INTERFACE_EVENTS_NATIVE;
    ui->registry = desc->registry;
    ui->events = desc->events ? *desc->events : natives;
    if (!desc->events && !tl_events_natives_declared(ui->registry, 21u, 25u, "Interface"))
        ui->registry = NULL;
    if (desc->logger) ui->logger = *desc->logger;
    ui->max_interfaces = desc->max_interfaces ? desc->max_interfaces : 16u;
    ui->max_selectables = desc->max_selectables ? desc->max_selectables : 32u;
    ui->max_interactables = desc->max_interactables ? desc->max_interactables : 64u;
    ui->commands = desc->commands;
    ui->set_mode = desc->set_mode;
    ui->hooks_ctx = desc->hooks_ctx;
    ui->menu_mode = desc->menu_mode ? desc->menu_mode : TL_INTERFACE_MODE_MENU;
    ui->gameplay_mode = desc->gameplay_mode ? desc->gameplay_mode : TL_INTERFACE_MODE_GAMEPLAY;
    ui->wrap = !desc->no_wrap;
}

TL_API tl_interface *tl_interface_create(const tl_interface_desc *desc) {
    tl_interface *ui;
    uint32_t i;
    if (!desc) {
        tl__interface_log(NULL, TL_INTERFACE_LOG_INVALID_ARGUMENT, "tl_interface_create");
        return NULL;
    }
    ui = (tl_interface *)TL_MALLOC(sizeof *ui);
    if (!ui) {
        tl__interface_log(desc->logger, TL_INTERFACE_LOG_OUT_OF_MEMORY, "tl_interface");
        return NULL;
    }
    memset(ui, 0, sizeof *ui);
    tl__interface_apply_desc(ui, desc);
    ui->entries = (tl__interface_entry *)tl__interface_alloc(ui, ui->max_interfaces,
                                                             sizeof *ui->entries, "interfaces");
    ui->stack = (uint32_t *)tl__interface_alloc(ui, ui->max_interfaces, sizeof(uint32_t), "stack");
    ui->pool = (tl__interface_selectable *)tl__interface_alloc(
        ui, (size_t)ui->max_interfaces * ui->max_selectables, sizeof *ui->pool, "selectables");
    ui->interactables = (tl__interface_interactable *)tl__interface_alloc(
        ui, ui->max_interactables, sizeof *ui->interactables, "interactables");
    if (!ui->entries || !ui->stack || !ui->pool || !ui->interactables) {
        tl_interface_destroy(ui);
        return NULL;
    }
    for (i = 0; i < ui->max_interfaces; i++)
        ui->entries[i].selectables = ui->pool + (size_t)i * ui->max_selectables;
    return ui;
}

/* --- the stack ---------------------------------------------------------------------------------- */

static uint32_t tl__interface_find(const tl_interface *ui, uint32_t id) {
    uint32_t i;
    for (i = 0; ui && id && i < ui->entry_count; i++)
        if (ui->entries[i].id == id) return i;
    return TL__INTERFACE_NONE;
}

/* The entry of `id`, or NULL after logging and recording UNKNOWN_INTERFACE. */
static tl__interface_entry *tl__interface_entry_of(tl_interface *ui, uint32_t id,
                                                   const char *what) {
    uint32_t i = tl__interface_find(ui, id);
    if (i != TL__INTERFACE_NONE) return &ui->entries[i];
    tl__interface_log(&ui->logger, TL_INTERFACE_LOG_UNKNOWN_INTERFACE, what, (unsigned)id);
    tl__interface_set(ui, TL_INTERFACE_UNKNOWN_INTERFACE);
    return NULL;
}

static tl__interface_entry *tl__interface_top_entry(tl_interface *ui) {
    return ui->depth ? &ui->entries[ui->stack[ui->depth - 1]] : NULL;
}

static void tl__interface_show(tl__interface_entry *e) {
    if (e->shown) return;
    e->shown = true;
    if (e->vt && e->vt->show) e->vt->show(e->self);
}

static void tl__interface_conceal(tl__interface_entry *e) {
    if (!e->shown) return;
    e->shown = false;
    if (e->vt && e->vt->conceal) e->vt->conceal(e->self);
}

/* Switches the modes when the stack has become non-empty or empty since they were last switched;
   true when it called the hook. */
static bool tl__interface_switch_modes(tl_interface *ui) {
    bool stacked = ui->depth > 0;
    if (ui->menu_on == stacked) return false;
    ui->menu_on = stacked;
    if (!ui->set_mode) return false;
    ui->set_mode(ui->hooks_ctx, stacked ? ui->gameplay_mode : ui->menu_mode, false);
    ui->set_mode(ui->hooks_ctx, stacked ? ui->menu_mode : ui->gameplay_mode, true);
    return true;
}

static void tl__interface_announce(tl_interface *ui, const tl__interface_entry *e) {
    if (!ui->registry || !e->selected) return;
    TL_EVENTS_PUBLISH(ui->registry, ui->events.selected, TL_INTERFACE_SIG_SELECTED,
                      tl_interface_selected_fn, e->id, e->selectables[e->selected - 1].id);
}

TL_API tl_interface_result tl_interface_register(tl_interface *ui, uint32_t id,
                                                 const tl_interface_vtable *vtable, void *self,
                                                 uint32_t flags) {
    tl__interface_entry *e;
    if (!ui || id == 0) {
        tl__interface_log(ui ? &ui->logger : NULL, TL_INTERFACE_LOG_INVALID_ARGUMENT, "register");
        return tl__interface_set(ui, TL_INTERFACE_INVALID_ARGUMENT);
    }
    if (tl__interface_find(ui, id) != TL__INTERFACE_NONE) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_ALREADY_REGISTERED, (unsigned)id);
        return tl__interface_set(ui, TL_INTERFACE_ALREADY_REGISTERED);
    }
    if (ui->entry_count == ui->max_interfaces) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_FULL, "interfaces",
                          (unsigned)ui->max_interfaces);
        return tl__interface_set(ui, TL_INTERFACE_FULL);
    }
    e = &ui->entries[ui->entry_count++];
    e->id = id;
    e->flags = flags;
    e->vt = vtable;
    e->self = self;
    if (vtable && vtable->boot) vtable->boot(self, ui, id);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

/* --- settling: what is shown follows the stack --------------------------------------------------
   A vtable function (or a listener) may stack, pop, cancel or clear while one of those calls is
   running; its call takes effect at once. The running call then settles from the stack as it
   is: each step below may call the game, which may change the stack again, so the steps start
   over after any call until none has anything to do. */

/* A shown interface under the top that is not persistent is concealed (the nearest first). */
static bool tl__interface_conceal_covered(tl_interface *ui) {
    uint32_t k = ui->depth ? ui->depth - 1u : 0u;
    while (k-- > 0) {
        tl__interface_entry *e = &ui->entries[ui->stack[k]];
        if (!e->shown || (e->flags & TL_INTERFACE_PERSISTENT)) continue;
        tl__interface_conceal(e);
        return true;
    }
    return false;
}

static bool tl__interface_show_top(tl_interface *ui) {
    tl__interface_entry *top = tl__interface_top_entry(ui);
    if (!top || top->shown) return false;
    tl__interface_show(top);
    return true;
}

/* A newly stacked interface's selection is told if it is still the top once shown. */
static bool tl__interface_announce_stacked(tl_interface *ui) {
    tl__interface_entry *top = tl__interface_top_entry(ui);
    uint32_t pending = ui->announce;
    if (!pending) return false;
    ui->announce = 0;
    if (!top || (uint32_t)(top - ui->entries) + 1u != pending || !top->shown) return false;
    tl__interface_announce(ui, top);
    return true;
}

static void tl__interface_settle(tl_interface *ui) {
    while (tl__interface_conceal_covered(ui) || tl__interface_switch_modes(ui) ||
           tl__interface_show_top(ui) || tl__interface_announce_stacked(ui)) {}
}

/* Calls that change the stack are refused inside tl_interface_destroy (it empties the stack
   without switching modes and discards every interface: nothing may be shown again). */
static bool tl__interface_refuse_in_destroy(tl_interface *ui, const char *what) {
    if (!ui->destroying) return false;
    tl__interface_log(&ui->logger, TL_INTERFACE_LOG_DESTROYING, what);
    tl__interface_set(ui, TL_INTERFACE_DESTROYING);
    return true;
}

static tl_interface_result tl__interface_already_stacked(tl_interface *ui, uint32_t id) {
    tl__interface_log(&ui->logger, TL_INTERFACE_LOG_ALREADY_STACKED, (unsigned)id);
    return tl__interface_set(ui, TL_INTERFACE_ALREADY_STACKED);
}

/* Conceals the top before another covers it, while it is still the top (its conceal may pop it
   or stack another: the new top is concealed in turn), unless it is persistent. */
static void tl__interface_cover_top(tl_interface *ui) {
    tl__interface_entry *top;
    while ((top = tl__interface_top_entry(ui)) && top->shown &&
           !(top->flags & TL_INTERFACE_PERSISTENT))
        tl__interface_conceal(top);
}

/* Pushes entry e over the top it covered, then settles: e shown, its selection told. */
static void tl__interface_push(tl_interface *ui, tl__interface_entry *e) {
    ui->stack[ui->depth++] = (uint32_t)(e - ui->entries);
    e->stacked = true;
    ui->announce = (uint32_t)(e - ui->entries) + 1u;
    tl__interface_settle(ui);
}

TL_API tl_interface_result tl_interface_stack_with(tl_interface *ui, uint32_t id,
                                                   const void *payload) {
    tl__interface_entry *e;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    if (tl__interface_refuse_in_destroy(ui, "stack")) return TL_INTERFACE_DESTROYING;
    e = tl__interface_entry_of(ui, id, "stack");
    if (!e) return TL_INTERFACE_UNKNOWN_INTERFACE;
    if (e->stacked) return tl__interface_already_stacked(ui, id);
    if (payload && e->vt && e->vt->preprocess && !e->vt->preprocess(e->self, payload)) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_REFUSED, (unsigned)id);
        return tl__interface_set(ui, TL_INTERFACE_REFUSED);
    }
    tl__interface_cover_top(ui);
    if (e->stacked) return tl__interface_already_stacked(ui, id); /* a conceal stacked it */
    tl__interface_push(ui, e);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API tl_interface_result tl_interface_stack(tl_interface *ui, uint32_t id) {
    return tl_interface_stack_with(ui, id, NULL);
}

/* Removes the top (concealed); the new top is not shown yet. */
static tl__interface_entry *tl__interface_remove_top(tl_interface *ui) {
    tl__interface_entry *e = tl__interface_top_entry(ui);
    if (!e) return NULL;
    ui->depth--;
    e->stacked = false;
    tl__interface_conceal(e);
    return e;
}

TL_API tl_interface_result tl_interface_pop_top(tl_interface *ui) {
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    if (tl__interface_refuse_in_destroy(ui, "pop_top")) return TL_INTERFACE_DESTROYING;
    if (!tl__interface_remove_top(ui)) return tl__interface_set(ui, TL_INTERFACE_EMPTY);
    tl__interface_settle(ui);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API tl_interface_result tl_interface_cancel(tl_interface *ui) {
    tl__interface_entry *e, *below;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    if (tl__interface_refuse_in_destroy(ui, "cancel")) return TL_INTERFACE_DESTROYING;
    e = tl__interface_top_entry(ui);
    if (!e) return tl__interface_set(ui, TL_INTERFACE_EMPTY);
    if (!(e->flags & TL_INTERFACE_CANCELLABLE))
        return tl__interface_set(ui, TL_INTERFACE_NOT_CANCELLABLE);
    (void)tl__interface_remove_top(ui);
    below = tl__interface_top_entry(ui);
    if (e->vt && e->vt->cancelled) e->vt->cancelled(e->self);
    if (ui->registry)
        TL_EVENTS_PUBLISH(ui->registry, ui->events.cancelled, TL_INTERFACE_SIG_ID,
                          tl_interface_id_fn, e->id);
    /* The one below, if it is still the top after those calls, learns its sub-panel went. */
    if (below && below == tl__interface_top_entry(ui) &&
        (below->flags & TL_INTERFACE_CANCELLABLE) && below->vt && below->vt->sub_panel_cancelled)
        below->vt->sub_panel_cancelled(below->self);
    tl__interface_settle(ui);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API void tl_interface_clear(tl_interface *ui) {
    if (!ui || ui->depth == 0 || tl__interface_refuse_in_destroy(ui, "clear")) return;
    while (tl__interface_remove_top(ui)) {}
    tl__interface_settle(ui);
}

TL_API bool tl_interface_is_top(const tl_interface *ui, uint32_t id) {
    return ui && ui->depth && id && ui->entries[ui->stack[ui->depth - 1]].id == id;
}

TL_API bool tl_interface_is_stacked(const tl_interface *ui, uint32_t id) {
    uint32_t i = tl__interface_find(ui, id);
    return i != TL__INTERFACE_NONE && ui->entries[i].stacked;
}

TL_API uint32_t tl_interface_top(const tl_interface *ui) {
    return ui && ui->depth ? ui->entries[ui->stack[ui->depth - 1]].id : 0;
}

TL_API uint32_t tl_interface_depth(const tl_interface *ui) { return ui ? ui->depth : 0; }

/* --- selectables -------------------------------------------------------------------------------- */

static uint32_t tl__interface_selectable_index(const tl__interface_entry *e, uint32_t selectable) {
    uint32_t i;
    for (i = 0; selectable && i < e->selectable_count; i++)
        if (e->selectables[i].id == selectable) return i;
    return TL__INTERFACE_NONE;
}

/* The first enabled selectable (index + 1), or 0. */
static uint32_t tl__interface_first_enabled(const tl__interface_entry *e) {
    uint32_t i;
    for (i = 0; i < e->selectable_count; i++)
        if (e->selectables[i].enabled) return i + 1u;
    return 0;
}

TL_API tl_interface_result tl_interface_add_selectable(tl_interface *ui, uint32_t id,
                                                       uint32_t selectable, int32_t x, int32_t y) {
    tl__interface_entry *e;
    tl__interface_selectable *s;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    e = tl__interface_entry_of(ui, id, "add_selectable");
    if (!e) return TL_INTERFACE_UNKNOWN_INTERFACE;
    if (selectable == 0 || tl__interface_selectable_index(e, selectable) != TL__INTERFACE_NONE) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_INVALID_ARGUMENT, "add_selectable");
        return tl__interface_set(ui, TL_INTERFACE_INVALID_ARGUMENT);
    }
    if (e->selectable_count == ui->max_selectables) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_FULL, "selectables",
                          (unsigned)ui->max_selectables);
        return tl__interface_set(ui, TL_INTERFACE_FULL);
    }
    s = &e->selectables[e->selectable_count++];
    s->id = selectable;
    s->x = x;
    s->y = y;
    s->enabled = true;
    if (!e->selected) e->selected = e->selectable_count;
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

/* The selectable of an interface, or NULL after logging why not. */
static tl__interface_selectable *tl__interface_selectable_of(tl_interface *ui, uint32_t id,
                                                             uint32_t selectable, const char *what,
                                                             tl__interface_entry **entry) {
    uint32_t i;
    *entry = tl__interface_entry_of(ui, id, what);
    if (!*entry) return NULL;
    i = tl__interface_selectable_index(*entry, selectable);
    if (i != TL__INTERFACE_NONE) return &(*entry)->selectables[i];
    tl__interface_log(&ui->logger, TL_INTERFACE_LOG_UNKNOWN_SELECTABLE, what, (unsigned)id,
                      (unsigned)selectable);
    tl__interface_set(ui, TL_INTERFACE_UNKNOWN_SELECTABLE);
    return NULL;
}

/* Moves e's selection to index `to` (+ 1); told when e is the top and it changed. */
static void tl__interface_move_selection(tl_interface *ui, tl__interface_entry *e, uint32_t to) {
    if (e->selected == to) return;
    e->selected = to;
    if (e == tl__interface_top_entry(ui)) tl__interface_announce(ui, e);
}

TL_API tl_interface_result tl_interface_set_enabled(tl_interface *ui, uint32_t id,
                                                    uint32_t selectable, bool enabled) {
    tl__interface_entry *e;
    tl__interface_selectable *s;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    s = tl__interface_selectable_of(ui, id, selectable, "set_enabled", &e);
    if (!s) return ui->result;
    s->enabled = enabled;
    if (!enabled && e->selected == (uint32_t)(s - e->selectables) + 1u)
        tl__interface_move_selection(ui, e, tl__interface_first_enabled(e));
    else if (enabled && !e->selected)
        tl__interface_move_selection(ui, e, (uint32_t)(s - e->selectables) + 1u);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API tl_interface_result tl_interface_select(tl_interface *ui, uint32_t id, uint32_t selectable) {
    tl__interface_entry *e;
    tl__interface_selectable *s;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    s = tl__interface_selectable_of(ui, id, selectable, "select", &e);
    if (!s) return ui->result;
    if (!s->enabled) return tl__interface_set(ui, TL_INTERFACE_INVALID_ARGUMENT);
    tl__interface_move_selection(ui, e, (uint32_t)(s - e->selectables) + 1u);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API uint32_t tl_interface_selected(const tl_interface *ui, uint32_t id) {
    uint32_t i = tl__interface_find(ui, id);
    if (i == TL__INTERFACE_NONE || !ui->entries[i].selected) return 0;
    return ui->entries[i].selectables[ui->entries[i].selected - 1].id;
}

/* The score of moving from `from` to `to` in a direction: along it plus twice across it; along
   must be positive (or, to wrap, any: the farthest back scores lowest). */
static int64_t tl__interface_score(const tl__interface_selectable *from,
                                   const tl__interface_selectable *to, tl_interface_command dir,
                                   bool wrap) {
    int64_t dx = (int64_t)to->x - from->x, dy = (int64_t)to->y - from->y, along, across;
    along = dir == TL_INTERFACE_UP     ? -dy
            : dir == TL_INTERFACE_DOWN ? dy
            : dir == TL_INTERFACE_LEFT ? -dx
                                       : dx;
    across = dir == TL_INTERFACE_UP || dir == TL_INTERFACE_DOWN ? dx : dy;
    if (across < 0) across = -across;
    if (!wrap && along <= 0) return INT64_MAX;
    if (wrap && along > 0) return INT64_MAX;
    return along + 2 * across;
}

/* The best index (+ 1) the other way of `wrap`, or 0. */
static uint32_t tl__interface_best(const tl__interface_entry *e, tl_interface_command dir,
                                   bool wrap) {
    const tl__interface_selectable *from = &e->selectables[e->selected - 1];
    int64_t best = INT64_MAX;
    uint32_t i, pick = 0;
    for (i = 0; i < e->selectable_count; i++) {
        int64_t score;
        if (i + 1u == e->selected || !e->selectables[i].enabled) continue;
        score = tl__interface_score(from, &e->selectables[i], dir, wrap);
        if (score < best) {
            best = score;
            pick = i + 1u;
        }
    }
    return pick;
}

TL_API tl_interface_result tl_interface_navigate(tl_interface *ui, tl_interface_command direction) {
    tl__interface_entry *e;
    uint32_t to;
    if (!ui || direction > TL_INTERFACE_RIGHT) return TL_INTERFACE_INVALID_ARGUMENT;
    e = tl__interface_top_entry(ui);
    if (!e) return tl__interface_set(ui, TL_INTERFACE_EMPTY);
    if (!e->selected) return tl__interface_set(ui, TL_INTERFACE_NOTHING_SELECTED);
    to = tl__interface_best(e, direction, false);
    if (!to && ui->wrap) to = tl__interface_best(e, direction, true);
    if (to) tl__interface_move_selection(ui, e, to);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API tl_interface_result tl_interface_confirm(tl_interface *ui) {
    tl__interface_entry *e;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    e = tl__interface_top_entry(ui);
    if (!e) return tl__interface_set(ui, TL_INTERFACE_EMPTY);
    if (!e->selected) return tl__interface_set(ui, TL_INTERFACE_NOTHING_SELECTED);
    if (e->vt && e->vt->confirm) e->vt->confirm(e->self, e->selectables[e->selected - 1].id);
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API void tl_interface_update(tl_interface *ui) {
    uint32_t bits, d;
    if (!ui || !ui->commands || ui->depth == 0) return;
    bits = ui->commands(ui->hooks_ctx);
    for (d = TL_INTERFACE_UP; d <= TL_INTERFACE_RIGHT; d++)
        if (bits & (1u << d)) (void)tl_interface_navigate(ui, (tl_interface_command)d);
    if (bits & (1u << TL_INTERFACE_CONFIRM)) (void)tl_interface_confirm(ui);
    if ((bits & (1u << TL_INTERFACE_CANCEL)) && ui->depth) (void)tl_interface_cancel(ui);
}

/* --- interactables ------------------------------------------------------------------------------ */

static tl__interface_interactable *tl__interface_interactable_of(const tl_interface *ui,
                                                                 uint32_t id) {
    uint32_t i;
    for (i = 0; ui && id && i < ui->max_interactables; i++)
        if (ui->interactables[i].used && ui->interactables[i].d.id == id)
            return &ui->interactables[i];
    return NULL;
}

/* OnInteract's provider: the interactable in range. */
static bool tl__interface_on_interact(void *ctx) {
    tl__interface_interactable *it = (tl__interface_interactable *)ctx;
    return it->d.interact ? it->d.interact(it->d.ctx, it->d.id) : false;
}

TL_API uint32_t tl_interface_in_range(const tl_interface *ui) {
    uint32_t i;
    for (i = 0; ui && i < ui->max_interactables; i++)
        if (ui->interactables[i].used && ui->interactables[i].in_range)
            return ui->interactables[i].d.id;
    return 0;
}

TL_API tl_interface_result tl_interface_interactable_add(tl_interface *ui,
                                                         const tl_interface_interactable_desc *d) {
    uint32_t i;
    if (!ui || !d || d->id == 0 || d->shape > TL_INTERFACE_BOX ||
        tl__interface_interactable_of(ui, d->id)) {
        tl__interface_log(ui ? &ui->logger : NULL, TL_INTERFACE_LOG_INVALID_ARGUMENT,
                          "interactable_add");
        return tl__interface_set(ui, TL_INTERFACE_INVALID_ARGUMENT);
    }
    if (!ui->registry) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_NO_REGISTRY, (unsigned)d->id);
        return tl__interface_set(ui, TL_INTERFACE_NO_REGISTRY);
    }
    for (i = 0; i < ui->max_interactables && ui->interactables[i].used; i++) {}
    if (i == ui->max_interactables) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_FULL, "interactables",
                          (unsigned)ui->max_interactables);
        return tl__interface_set(ui, TL_INTERFACE_FULL);
    }
    ui->interactables[i].d = *d;
    ui->interactables[i].used = true;
    ui->interactables[i].in_range = false;
    ui->interactables[i].refused_for = 0;
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

static void tl__interface_leave(tl_interface *ui, tl__interface_interactable *it) {
    it->in_range = false;
    (void)tl_events_unsubscribe(ui->registry, ui->events.interact,
                                TL_EVENTS_FN(tl__interface_on_interact), it);
    TL_EVENTS_PUBLISH(ui->registry, ui->events.out_of_range, TL_INTERFACE_SIG_ID,
                      tl_interface_id_fn, it->d.id);
}

/* What a refused OnInteract subscription means here: another provider (not an interactable) has
   it, the registry is out of memory, or its OnInteract is not the native event. */
static tl_interface_result tl__interface_from_events(tl_events_result r) {
    if (r == TL_EVENTS_SECOND_PROVIDER) return TL_INTERFACE_SECOND_INTERACTABLE;
    if (r == TL_EVENTS_OUT_OF_MEMORY) return TL_INTERFACE_OUT_OF_MEMORY;
    return TL_INTERFACE_INVALID_ARGUMENT;
}

static tl_interface_result tl__interface_enter(tl_interface *ui, tl__interface_interactable *it) {
    tl_events_result subscribed;
    uint32_t other = tl_interface_in_range(ui);
    if (other) { /* said once while the pair lasts: detect runs every frame */
        if (it->refused_for != other)
            tl__interface_log(&ui->logger, TL_INTERFACE_LOG_SECOND_INTERACTABLE, (unsigned)it->d.id,
                              (unsigned)other, (unsigned)it->d.id);
        it->refused_for = other;
        return TL_INTERFACE_SECOND_INTERACTABLE;
    }
    it->refused_for = 0;
    subscribed =
        tl_events_subscribe(ui->registry, ui->events.interact, TL_INTERFACE_SIG_INTERACT,
                            TL_EVENTS_SINGLE_PROVIDER, TL_EVENTS_FN(tl__interface_on_interact), it);
    if (subscribed != TL_EVENTS_OK)
        return tl__interface_from_events(subscribed); /* events.h logged it */
    it->in_range = true;
    TL_EVENTS_PUBLISH(ui->registry, ui->events.detected, TL_INTERFACE_SIG_ID, tl_interface_id_fn,
                      it->d.id);
    return TL_INTERFACE_OK;
}

TL_API tl_interface_result tl_interface_interactable_remove(tl_interface *ui, uint32_t id) {
    tl__interface_interactable *it = tl__interface_interactable_of(ui, id);
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    if (!it) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_UNKNOWN_INTERACTABLE, "interactable_remove",
                          (unsigned)id);
        return tl__interface_set(ui, TL_INTERFACE_UNKNOWN_INTERACTABLE);
    }
    if (it->in_range) tl__interface_leave(ui, it);
    it->used = false;
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

TL_API tl_interface_result tl_interface_interactable_move(tl_interface *ui, uint32_t id,
                                                          tl_fpv2 centre) {
    tl__interface_interactable *it = tl__interface_interactable_of(ui, id);
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    if (!it) {
        tl__interface_log(&ui->logger, TL_INTERFACE_LOG_UNKNOWN_INTERACTABLE, "interactable_move",
                          (unsigned)id);
        return tl__interface_set(ui, TL_INTERFACE_UNKNOWN_INTERACTABLE);
    }
    it->d.centre = centre;
    return tl__interface_set(ui, TL_INTERFACE_OK);
}

/* Whether `p` is inside the area (its edge included), in fixed point. */
static bool tl__interface_inside(const tl_interface_interactable_desc *d, tl_fpv2 p) {
    tl_fp dx = tl_fp_abs(tl_fp_sub(p.x, d->centre.x)), dy = tl_fp_abs(tl_fp_sub(p.y, d->centre.y));
    tl_fp r = d->radius;
    if (d->shape == TL_INTERFACE_BOX)
        return tl_fp_le(dx, d->half_extents.x) && tl_fp_le(dy, d->half_extents.y);
    if (tl_fp_gt(dx, r) || tl_fp_gt(dy, r)) return false;
    /* Squares past 46,340 pass TL_FP_MAX: a big circle is compared at a coarser scale, the same
       power of two for all three (exact to 2^-32 of a unit times that scale), so that
       dx^2 + dy^2 <= 2 r^2 < 2^31. */
    while (tl_fp_gt(r, tl_fp_from_int(32767))) {
        r.raw >>= 1;
        dx.raw >>= 1;
        dy.raw >>= 1;
    }
    return tl_fp_le(tl_fp_add(tl_fp_mul(dx, dx), tl_fp_mul(dy, dy)), tl_fp_mul(r, r));
}

TL_API tl_interface_result tl_interface_detect(tl_interface *ui, tl_fpv2 position) {
    tl_interface_result r = TL_INTERFACE_OK, one;
    uint32_t i;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    for (i = 0; i < ui->max_interactables; i++) { /* leaving first: then one may enter */
        tl__interface_interactable *it = &ui->interactables[i];
        if (it->used && it->in_range && !tl__interface_inside(&it->d, position))
            tl__interface_leave(ui, it);
    }
    for (i = 0; i < ui->max_interactables; i++) {
        tl__interface_interactable *it = &ui->interactables[i];
        if (!it->used || it->in_range) continue;
        if (!tl__interface_inside(&it->d, position)) {
            it->refused_for = 0; /* it left its area: a refusal when it comes back is said again */
            continue;
        }
        one = tl__interface_enter(ui, it);
        if (r == TL_INTERFACE_OK) r = one;
    }
    return tl__interface_set(ui, r);
}

TL_API tl_interface_result tl_interface_interact(tl_interface *ui, bool *answer) {
    bool answered = false, result = false;
    if (!ui) return TL_INTERFACE_INVALID_ARGUMENT;
    if (ui->registry)
        TL_EVENTS_REQUEST0(answered, &result, ui->registry, ui->events.interact,
                           TL_INTERFACE_SIG_INTERACT, tl_interface_interact_fn);
    if (answer) *answer = result;
    return tl__interface_set(ui, answered ? TL_INTERFACE_OK : TL_INTERFACE_NOTHING_IN_RANGE);
}

TL_API void tl_interface_destroy(tl_interface *ui) {
    uint32_t i;
    if (!ui) return;
    ui->destroying = true;
    if (ui->entries) {
        while (tl__interface_remove_top(ui)) {}
        for (i = 0; i < ui->entry_count; i++)
            if (ui->entries[i].vt && ui->entries[i].vt->discard)
                ui->entries[i].vt->discard(ui->entries[i].self);
    }
    for (i = 0; ui->interactables && i < ui->max_interactables; i++)
        if (ui->interactables[i].used && ui->interactables[i].in_range)
            (void)tl_events_unsubscribe(ui->registry, ui->events.interact,
                                        TL_EVENTS_FN(tl__interface_on_interact),
                                        &ui->interactables[i]);
    TL_FREE(ui->entries);
    TL_FREE(ui->stack);
    TL_FREE(ui->pool);
    TL_FREE(ui->interactables);
    TL_FREE(ui);
}

#ifdef __cplusplus
}
#endif
#endif /* TL_INTERFACE_IMPL */
