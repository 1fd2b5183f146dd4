/* The text rules (UTF-8, case folding, file names), compiled once for the generator from the
 * runtime's header, so that the generator and the runtime agree on every name. */
#define TL_TEXT_IMPL
#include <threadlink/text.h>
