"""aioblescan's decoder: HCI_Event().decode() on each LE Meta event, as its scanner's callback does,
then the Manufacturer Specific Data it decoded is read for Apple's iBeacon layout (aioblescan has no
iBeacon plugin; its plugins look up decoded fields with retrieve() the same way).
"""
import uuid as uuidlib

import aioblescan
from btsnoop_events import Tally, arguments, events


def main():
    args = arguments(__doc__.splitlines()[0])
    wanted = args.uuid.upper() if args.uuid else None
    tally = Tally()
    for pkt in events(args.capture, args.limit):
        tally.reports += 1
        event = aioblescan.HCI_Event()
        event.decode(pkt)
        for data in event.retrieve(aioblescan.ManufacturerSpecificData):
            company = data.payload[0].val
            payload = data.payload[1].val
            if company != 0x004C or len(payload) < 23 or payload[0] != 0x02 or payload[1] != 0x15:
                continue
            beacon_uuid = str(uuidlib.UUID(bytes=bytes(payload[2:18]))).upper()
            if wanted is None or beacon_uuid == wanted:
                tally.add(beacon_uuid, int.from_bytes(payload[18:20], 'big'), int.from_bytes(payload[20:22], 'big'))
            break
    tally.print(args.counts)


main()
