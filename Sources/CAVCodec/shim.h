#include <libavcodec/avcodec.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/error.h>

/* AVERROR(EAGAIN) and AVERROR_EOF: macros Swift does not import. */
static inline int thumbs_averror_again(void) { return AVERROR(EAGAIN); }
static inline int thumbs_averror_eof(void) { return AVERROR_EOF; }
