/**
 * Code highlighting for the playground's replies, written small on purpose: one linear scan that
 * marks comments, strings, numbers and the keywords of the language the block names (a family of
 * C-like, Python-like and shell-like languages; others get strings and numbers only). Pure: the
 * pieces concatenate back to the code exactly, and React renders them as text.
 */
export type CodePiece = { text: string; kind?: 'comment' | 'string' | 'number' | 'keyword' }

/** Longer blocks are shown without colours (the scan stays cheap whatever a reply holds). */
const MAX_HIGHLIGHTED_CHARS = 40_000

const C_LIKE = ['js', 'javascript', 'jsx', 'ts', 'typescript', 'tsx', 'java', 'c', 'cpp', 'c++', 'cs', 'csharp', 'go', 'golang', 'rust', 'rs', 'kotlin', 'swift', 'php', 'scala', 'dart']
const HASH_COMMENTS = ['python', 'py', 'bash', 'sh', 'shell', 'zsh', 'ruby', 'rb', 'yaml', 'yml', 'toml', 'dockerfile', 'perl', 'r', 'powershell', 'ps1']

const KEYWORDS: Record<string, readonly string[]> = {
	c: ['async', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'default', 'defer', 'do', 'else', 'enum', 'export', 'extends', 'false', 'final', 'fn', 'for', 'from', 'func', 'function', 'go', 'if', 'impl', 'implements', 'import', 'in', 'interface', 'let', 'match', 'mut', 'new', 'null', 'package', 'private', 'protected', 'pub', 'public', 'return', 'static', 'struct', 'super', 'switch', 'this', 'throw', 'throws', 'true', 'try', 'type', 'typeof', 'undefined', 'use', 'var', 'void', 'while', 'yield', 'int', 'string', 'bool', 'boolean', 'number', 'float', 'double', 'char', 'nil', 'self', 'range', 'map', 'chan', 'select'],
	hash: ['and', 'as', 'assert', 'async', 'await', 'break', 'case', 'class', 'continue', 'def', 'del', 'do', 'done', 'elif', 'else', 'end', 'esac', 'except', 'export', 'false', 'False', 'fi', 'finally', 'for', 'from', 'function', 'if', 'import', 'in', 'is', 'lambda', 'local', 'None', 'nil', 'not', 'or', 'pass', 'raise', 'return', 'then', 'true', 'True', 'try', 'while', 'with', 'yield', 'echo', 'self', 'require', 'module'],
	sql: ['select', 'from', 'where', 'and', 'or', 'not', 'insert', 'into', 'values', 'update', 'set', 'delete', 'create', 'table', 'index', 'join', 'left', 'right', 'inner', 'outer', 'on', 'group', 'by', 'order', 'limit', 'offset', 'as', 'null', 'is', 'in', 'primary', 'key', 'distinct', 'count', 'having', 'union', 'drop', 'alter'],
	json: ['true', 'false', 'null'],
}

type Syntax = { comment: RegExp | undefined; keywords: Set<string>; caseless: boolean }

function syntaxOf(language: string): Syntax {
	const name = language.trim().toLowerCase()
	if (C_LIKE.includes(name)) return { comment: /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y, keywords: new Set(KEYWORDS.c), caseless: false }
	if (HASH_COMMENTS.includes(name)) return { comment: /#[^\n]*/y, keywords: new Set(KEYWORDS.hash), caseless: false }
	if (name === 'sql') return { comment: /--[^\n]*/y, keywords: new Set(KEYWORDS.sql), caseless: true }
	if (name === 'json' || name === 'jsonc') return { comment: /\/\/[^\n]*/y, keywords: new Set(KEYWORDS.json), caseless: false }
	return { comment: undefined, keywords: new Set(), caseless: false }
}

const STRING = /"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?/y
const NUMBER = /\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const WORD = /[A-Za-z_$][\w$]*/y

function matchAt(pattern: RegExp, code: string, index: number) {
	pattern.lastIndex = index
	return pattern.exec(code)?.[0]
}

export function highlight(code: string, language: string): CodePiece[] {
	if (code.length > MAX_HIGHLIGHTED_CHARS) return [{ text: code }]
	const syntax = syntaxOf(language)
	const pieces: CodePiece[] = []
	let plain = ''
	const push = (text: string, kind: CodePiece['kind']) => {
		if (plain) pieces.push({ text: plain })
		plain = ''
		pieces.push({ text, kind })
	}
	let index = 0
	while (index < code.length) {
		const character = code[index]!
		const comment = syntax.comment ? matchAt(syntax.comment, code, index) : undefined
		if (comment) {
			push(comment, 'comment')
			index += comment.length
			continue
		}
		if (character === '"' || character === "'" || character === '`') {
			const text = matchAt(STRING, code, index) ?? character
			push(text, 'string')
			index += text.length
			continue
		}
		// A number or a word starts only where no word goes on (`x1` is one name).
		const previous = index > 0 ? code[index - 1]! : ''
		if (/\d/.test(character) && !/[\w$]/.test(previous)) {
			const text = matchAt(NUMBER, code, index)!
			push(text, 'number')
			index += text.length
			continue
		}
		if (/[A-Za-z_$]/.test(character) && !/[\w$]/.test(previous)) {
			const word = matchAt(WORD, code, index)!
			if (syntax.keywords.has(syntax.caseless ? word.toLowerCase() : word)) push(word, 'keyword')
			else plain += word
			index += word.length
			continue
		}
		plain += character
		index += 1
	}
	if (plain) pieces.push({ text: plain })
	return pieces
}
