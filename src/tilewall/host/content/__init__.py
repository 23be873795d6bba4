"""Sources, their catalogue of types, live inputs and the media library."""
