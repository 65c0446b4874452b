// Debian's libmosquitto (libmosquitto-dev), imported as is: no logic here.
#include <mosquitto.h>
