import BeaconCLI

BeaconTool.main()
