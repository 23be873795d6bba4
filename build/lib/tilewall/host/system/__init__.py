"""The host as a machine and a product: accounts, licence, machine facts and settings, failover, serial, print profiles, troubleshooting."""
