import Glibc

/// open(2) flags for modules that must not import Glibc (C callbacks that receive and pass on
/// raw flags, such as libinput's open_restricted).
package enum OpenFlags {
    package static let readOnly = O_RDONLY
    package static let writeOnly = O_WRONLY
    package static let readWrite = O_RDWR
    package static let accessMode = O_ACCMODE
    package static let nonBlocking = O_NONBLOCK
    package static let noFollow = O_NOFOLLOW
    package static let closeOnExec = O_CLOEXEC
}
