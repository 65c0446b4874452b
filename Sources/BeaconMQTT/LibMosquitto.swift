import CMosquitto
import Glibc

/// libmosquitto, opened the first time a publisher starts. Linking it would load it, with libssl and
/// libcrypto, into every run (1.7 MB resident) for the few that publish.
struct LibMosquitto: @unchecked Sendable {
    /// Debian's soname (package libmosquitto1).
    static let soname = "libmosquitto.so.1"

    let libInit: cmosq_lib_init
    let new: cmosq_new
    let destroy: cmosq_destroy
    let willSet: cmosq_will_set
    let usernamePwSet: cmosq_username_pw_set
    let connectAsync: cmosq_connect_async
    let disconnect: cmosq_disconnect
    let publish: cmosq_publish
    let loopRead: cmosq_loop_read
    let loopWrite: cmosq_loop_write
    let loopMisc: cmosq_loop_misc
    let socket: cmosq_socket
    let wantWrite: cmosq_want_write
    let intOption: cmosq_int_option
    let tlsSet: cmosq_tls_set
    let connectCallbackSet: cmosq_connect_callback_set
    let publishCallbackSet: cmosq_publish_callback_set
    let subscribe: cmosq_subscribe
    let messageCallbackSet: cmosq_message_callback_set
    let strerror: cmosq_strerror
    let connackString: cmosq_connack_string

    /// libmosquitto's text for the error `rc`, as a clause of a longer line ("A TLS error occurred").
    func errorText(_ rc: Int32) -> String? { strerror(rc).map { Self.clause(String(cString: $0)) } }

    /// libmosquitto's text for a broker's CONNACK refusal `code`, as a clause of a longer line.
    func refusalText(_ code: Int32) -> String? { connackString(code).map { Self.clause(String(cString: $0)) } }

    /// libmosquitto's messages are sentences; beacon's lines join clauses with ':' and ';', so the full stop goes.
    static func clause(_ sentence: String) -> String { sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence }

    /// The library, opened and initialized once, or why it cannot be.
    static let shared: Result<LibMosquitto, MQTTLibraryError> = open(soname)

    static func open(_ soname: String) -> Result<LibMosquitto, MQTTLibraryError> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return .failure(MQTTLibraryError(lastError())) }
        func symbol<Function>(_ name: String) throws(MQTTLibraryError) -> Function {
            guard let address = dlsym(handle, name) else { throw MQTTLibraryError(lastError()) }
            return unsafeBitCast(address, to: Function.self)
        }
        do throws(MQTTLibraryError) {
            let library = LibMosquitto(
                                   libInit: try symbol("mosquitto_lib_init"),
                                   new: try symbol("mosquitto_new"),
                                   destroy: try symbol("mosquitto_destroy"),
                                   willSet: try symbol("mosquitto_will_set"),
                                   usernamePwSet: try symbol("mosquitto_username_pw_set"),
                                   connectAsync: try symbol("mosquitto_connect_async"),
                                   disconnect: try symbol("mosquitto_disconnect"),
                                   publish: try symbol("mosquitto_publish"),
                                   loopRead: try symbol("mosquitto_loop_read"),
                                   loopWrite: try symbol("mosquitto_loop_write"),
                                   loopMisc: try symbol("mosquitto_loop_misc"),
                                   socket: try symbol("mosquitto_socket"),
                                   wantWrite: try symbol("mosquitto_want_write"),
                                   intOption: try symbol("mosquitto_int_option"),
                                   tlsSet: try symbol("mosquitto_tls_set"),
                                   connectCallbackSet: try symbol("mosquitto_connect_callback_set"),
                                   publishCallbackSet: try symbol("mosquitto_publish_callback_set"),
                                   subscribe: try symbol("mosquitto_subscribe"),
                                   messageCallbackSet: try symbol("mosquitto_message_callback_set"),
                                   strerror: try symbol("mosquitto_strerror"),
                                   connackString: try symbol("mosquitto_connack_string"))
            _ = library.libInit()
            return .success(library)
        } catch {
            return .failure(error)
        }
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "cannot open \(soname)"
    }
}

/// libmosquitto cannot be opened: `--mqtt` needs it installed.
public struct MQTTLibraryError: Error, CustomStringConvertible, Sendable {
    /// dlopen's or dlsym's reason.
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "--mqtt needs libmosquitto (Debian package libmosquitto1): \(reason)" }
}
