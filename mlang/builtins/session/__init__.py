"""The session: workspace, help, search path, interaction, timing, display format."""
