"""aioblescan's decoder: HCI_Event().decode() on each LE Meta event, as its scanner's callback does,
then the Manufacturer Specific Data it decoded is read for Apple's iBeacon layout (aioblescan has no
iBeacon plugin; its plugins look up decoded fields with retrieve() the same way).
"""
import aioblescan
from btsnoop_events import Tally, arguments, events, ibeacon


def main():
    args = arguments(__doc__.splitlines()[0])
    tally = Tally()
    for pkt in events(args.capture, args.limit):
        tally.reports += 1
        event = aioblescan.HCI_Event()
        event.decode(pkt)
        for data in event.retrieve(aioblescan.ManufacturerSpecificData):
            identity = ibeacon(data.payload[0].val, data.payload[1].val)
            if identity:
                tally.add_if_wanted(identity, args.uuid)
                break
    tally.print(args.counts)


main()
