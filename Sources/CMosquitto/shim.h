// Debian's libmosquitto (libmosquitto-dev), imported as is: no logic here.
#include <mosquitto.h>

// The functions beacon calls, as pointer types: libmosquitto is opened (dlopen) only when --mqtt is
// given, so other runs neither load it nor the TLS libraries it links (LibMosquitto.swift).
typedef __typeof__(&mosquitto_lib_init) cmosq_lib_init;
typedef __typeof__(&mosquitto_new) cmosq_new;
typedef __typeof__(&mosquitto_destroy) cmosq_destroy;
typedef __typeof__(&mosquitto_will_set) cmosq_will_set;
typedef __typeof__(&mosquitto_username_pw_set) cmosq_username_pw_set;
typedef __typeof__(&mosquitto_connect_async) cmosq_connect_async;
typedef __typeof__(&mosquitto_disconnect) cmosq_disconnect;
typedef __typeof__(&mosquitto_publish) cmosq_publish;
typedef __typeof__(&mosquitto_loop_read) cmosq_loop_read;
typedef __typeof__(&mosquitto_loop_write) cmosq_loop_write;
typedef __typeof__(&mosquitto_loop_misc) cmosq_loop_misc;
typedef __typeof__(&mosquitto_socket) cmosq_socket;
typedef __typeof__(&mosquitto_want_write) cmosq_want_write;
typedef __typeof__(&mosquitto_int_option) cmosq_int_option;
typedef __typeof__(&mosquitto_tls_set) cmosq_tls_set;
typedef __typeof__(&mosquitto_connect_callback_set) cmosq_connect_callback_set;
typedef __typeof__(&mosquitto_publish_callback_set) cmosq_publish_callback_set;
typedef __typeof__(&mosquitto_subscribe) cmosq_subscribe;
typedef __typeof__(&mosquitto_message_callback_set) cmosq_message_callback_set;
typedef __typeof__(&mosquitto_strerror) cmosq_strerror;
typedef __typeof__(&mosquitto_connack_string) cmosq_connack_string;
