/**
 * JavaScriptCore's JIT policy while Ferry starts. main.ts imports this module before any other, so it
 * runs before the rest of the code is even evaluated: the tier-up thresholds are multiplied by
 * `START_UP_JIT_SCALE`, and code that runs only during start-up (module bodies, schema builders,
 * migrations) stays in the interpreter instead of being compiled for nothing. main.ts restores the
 * normal policy once the server listens. Measured with the bench's data (bun src/main.ts): about
 * 2 MB less idle memory; code that is hot under load is compiled as before.
 */
const START_UP_JIT_SCALE = 8
const NORMAL_JIT_SCALE = 1

Bun.unsafe.setJITPolicy(START_UP_JIT_SCALE)

export function endStartUpJitPolicy() {
	Bun.unsafe.setJITPolicy(NORMAL_JIT_SCALE)
}
