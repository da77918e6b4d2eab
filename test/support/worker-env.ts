// Cheap argon2 parameters in tests: hashing speed is not what they measure.
process.env.PASSWORD_HASH_MEMORY_KIB ??= '1024';
