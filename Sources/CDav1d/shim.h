#include <errno.h>
#include <dav1d/dav1d.h>

/// DAV1D_ERR(EAGAIN): a function-like macro, which Swift does not import.
static inline int thumbs_dav1d_again(void) { return DAV1D_ERR(EAGAIN); }
