import BeaconCLI
