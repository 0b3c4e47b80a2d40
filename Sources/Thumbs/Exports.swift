// What a user of thumbnails meets in this module's API comes with `import Thumbs`: byte sources and inputs
// (ByteSources), movies, tracks and `MP4Error` (MP4Box), decoded frames and `DecodeError` (FrameDecode). URLs stay
// in `RangeFetch`, imported on its own, so an app of local files builds no networking.
@_exported import ByteSources
@_exported import FrameDecode
@_exported import MP4Box
