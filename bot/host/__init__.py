"""Running the bot as a service: settings, logs, metrics, health, leases, stopping, the host's tools."""
