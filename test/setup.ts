// Preloaded by bunfig.toml before every test file.
process.env.NODE_ENV ??= 'test'
