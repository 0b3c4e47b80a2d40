// The C library's allocator controls (glibc's malloc_trim), which Glibc's Swift module does not import.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
