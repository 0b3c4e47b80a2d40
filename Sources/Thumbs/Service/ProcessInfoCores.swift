#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The number of processor cores online, from sysconf (no Foundation in the library's hot paths).
package enum ProcessInfoCores {
    package static var active: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
