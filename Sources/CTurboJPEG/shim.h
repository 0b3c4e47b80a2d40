#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* dladdr */
#endif
#include <dlfcn.h>
#include <turbojpeg.h>

/* The file of the libturbojpeg linked (TurboJPEG has no version call): dladdr of one of its functions. */
static inline const char *CTurboJPEG_libraryPath(void) {
    Dl_info info;
    if (dladdr((void *)tjInitCompress, &info) == 0) return 0;
    return info.dli_fname;
}
