#!/usr/bin/env python3
"""The advertising data a capture sets, as Wireshark's tshark dissects it, so tests check what beacon
records with a reader that shares none of its code.

    tshark_advertising_data.py [--altbeacon COMPANY] CAPTURE

Prints one JSON line per LE Set Advertising Data (0x2008) and LE Set Extended Advertising Data (0x2037)
command in CAPTURE, in order, with what tshark's Bluetooth dissectors made of it:

    opcode             "0x2008" or "0x2037"
    types, lengths     each AD structure's type ("0x16") and length byte, in order
    uuid16             the 16-bit UUIDs, of UUID lists and of service data alike ("0xfeaa")
    serviceData        the value of each Service Data - 16-bit UUID structure after its UUID, hex
    companyId          the company identifier of each manufacturer-specific structure ("0x0118")
    generalDiscoverable, brEdrNotSupported    the flags structure's two bits
    altBeacon          with --altbeacon COMPANY: the AltBeacon fields tshark decodes from that company's
                       manufacturer data (tshark only does so when told to, by Decode As): code, id
                       (20 bytes, hex), referenceRssi, manufacturerData (the reserved byte)

Exit status: 0, 1 when tshark fails, 64 for bad arguments.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

FIELDS = {
    'opcode': 'bthci_cmd.opcode',
    'types': 'btcommon.eir_ad.entry.type',
    'lengths': 'btcommon.eir_ad.entry.length',
    'uuid16': 'btcommon.eir_ad.entry.uuid_16',
    'serviceData': 'btcommon.eir_ad.entry.service_data',
    'companyId': 'btcommon.eir_ad.entry.company_id',
    'generalDiscoverable': 'btcommon.eir_ad.entry.flags.le_general_discoverable_mode',
    'brEdrNotSupported': 'btcommon.eir_ad.entry.flags.bredr_not_supported',
}
ALTBEACON_FIELDS = {
    'code': 'bluetooth.alt_beacon.code',
    'id': 'bluetooth.alt_beacon.id',
    'referenceRssi': 'bluetooth.alt_beacon.reference_rssi',
    'manufacturerData': 'bluetooth.alt_beacon.manufacturer_data',
}
SET_DATA = 'bthci_cmd.opcode == 0x2008 || bthci_cmd.opcode == 0x2037'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--altbeacon', metavar='COMPANY', help='decode this company id\'s manufacturer data as AltBeacon')
    parser.add_argument('capture')
    try:
        args = parser.parse_args()
    except SystemExit as exit:
        return 0 if exit.code == 0 else 64
    command = ['tshark', '-r', args.capture, '-Y', SET_DATA, '-T', 'json']
    fields = dict(FIELDS)
    if args.altbeacon:
        command += ['-d', f'btcommon.eir_ad.manufacturer_company_id=={args.altbeacon},alt_beacon']
        fields.update({'altBeacon.' + name: field for name, field in ALTBEACON_FIELDS.items()})
    for field in fields.values():
        command += ['-e', field]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        print(f'Error: tshark exited {result.returncode}: {result.stderr.strip()}', file=sys.stderr)
        return 1
    for packet in json.loads(result.stdout or '[]'):
        layers = packet['_source']['layers']
        line: dict = {}
        for name, field in fields.items():
            values = layers.get(field, [])
            if name.startswith('altBeacon.'):
                if values:
                    line.setdefault('altBeacon', {})[name.split('.', 1)[1]] = values[0]
            elif name == 'opcode':
                line[name] = values[0] if values else None
            elif name in ('generalDiscoverable', 'brEdrNotSupported'):
                line[name] = values == ['0x01']
            else:
                line[name] = values
        print(json.dumps(line, separators=(',', ':')))
    return 0


if __name__ == '__main__':
    sys.exit(main())
