/**
 * A merge left half-resolved can still typecheck when its markers sit inside a comment or a string;
 * this catches them in every file the repository holds as text.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')
/** A conflict's opening, middle or closing line as git writes them. */
const MARKER = /^(?:<{7} |={7}$|>{7} )/m
const TEXT_FILE = /\.(?:ts|tsx|js|css|md|json|sql|toml|sh|html|yml|yaml)$/

function trackedFiles(): string[] {
	const listed = Bun.spawnSync(['git', 'ls-files', '-z'], { cwd: root })
	return new TextDecoder().decode(listed.stdout).split('\0').filter((path) => TEXT_FILE.test(path))
}

test('no file of the repository carries a merge conflict marker', () => {
	const files = trackedFiles()
	expect(files.length).toBeGreaterThan(100)
	const marked = files.filter((path) => MARKER.test(readFileSync(join(root, path), 'utf8')))
	expect(marked).toEqual([])
})
