/**
 * A reply's Markdown as React elements: `marked` reads it into tokens and each token becomes an
 * element whose text React escapes, so model output is never HTML (raw HTML in a reply shows as the
 * text it is). Links go only to http(s) and mailto addresses and open in a new tab; images show as
 * links. Loaded with the first reply, never with the page.
 */
import { CheckIcon, CopyIcon } from 'lucide-react'
import { Lexer, type Token, type Tokens } from 'marked'
import { type ReactNode, useMemo, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'
import { type CodePiece, highlight } from './highlight'

const PIECE_CLASSES: Record<NonNullable<CodePiece['kind']>, string> = {
	comment: 'text-muted-foreground italic',
	string: 'text-emerald-700 dark:text-emerald-400',
	number: 'text-amber-700 dark:text-amber-400',
	keyword: 'text-violet-700 dark:text-violet-400 font-medium',
}

const safeHref = (href: string) => (/^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : undefined)

export function MarkdownView({ text }: { text: string }) {
	const tokens = useMemo(() => Lexer.lex(text, { gfm: true, breaks: false }), [text])
	return <div className="flex flex-col gap-2 break-words" data-testid="markdown">{blocks(tokens)}</div>
}

function blocks(tokens: Token[]): ReactNode[] {
	return tokens.map((token, index) => block(token, index))
}

function block(token: Token, key: number): ReactNode {
	switch (token.type) {
		case 'space':
		case 'def':
			return null
		case 'paragraph':
			return <p key={key} className="leading-relaxed">{inline((token as Tokens.Paragraph).tokens)}</p>
		case 'heading': {
			const heading = token as Tokens.Heading
			const size = heading.depth <= 1 ? 'text-lg' : heading.depth === 2 ? 'text-base' : 'text-sm'
			return <p key={key} role="heading" aria-level={heading.depth} className={cn('font-semibold', size)}>{inline(heading.tokens)}</p>
		}
		case 'code': {
			const code = token as Tokens.Code
			return <CodeBlock key={key} code={code.text} language={code.lang ?? ''} />
		}
		case 'blockquote':
			return <blockquote key={key} className="flex flex-col gap-2 border-l-2 pl-3 text-muted-foreground">{blocks((token as Tokens.Blockquote).tokens)}</blockquote>
		case 'list': {
			const list = token as Tokens.List
			const items = list.items.map((item, index) => (
				<li key={index} className="pl-1">
					{item.task && <input type="checkbox" checked={Boolean(item.checked)} readOnly disabled className="mr-1.5 align-middle" />}
					{item.tokens.map((child, childIndex) => (child.type === 'text' ? <span key={childIndex}>{inline((child as Tokens.Text).tokens ?? [child])}</span> : block(child, childIndex)))}
				</li>
			))
			return list.ordered
				? <ol key={key} start={typeof list.start === 'number' ? list.start : undefined} className="list-decimal pl-6">{items}</ol>
				: <ul key={key} className="list-disc pl-6">{items}</ul>
		}
		case 'table': {
			const table = token as Tokens.Table
			return (
				<div key={key} className="overflow-x-auto">
					<table className="w-full border-collapse text-sm">
						<thead>
							<tr>{table.header.map((cell, index) => <th key={index} className="border px-2 py-1 text-left font-semibold">{inline(cell.tokens)}</th>)}</tr>
						</thead>
						<tbody>
							{table.rows.map((row, rowIndex) => <tr key={rowIndex}>{row.map((cell, index) => <td key={index} className="border px-2 py-1">{inline(cell.tokens)}</td>)}</tr>)}
						</tbody>
					</table>
				</div>
			)
		}
		case 'hr':
			return <hr key={key} className="border-border" />
		case 'html':
			return <p key={key} className="whitespace-pre-wrap">{(token as Tokens.HTML).text}</p>
		case 'text': {
			const text = token as Tokens.Text
			return <p key={key}>{text.tokens ? inline(text.tokens) : text.text}</p>
		}
		default:
			return <p key={key} className="whitespace-pre-wrap">{token.raw}</p>
	}
}

function inline(tokens: Token[]): ReactNode[] {
	return tokens.map((token, key) => {
		switch (token.type) {
			case 'text': {
				const text = token as Tokens.Text
				return text.tokens ? <span key={key}>{inline(text.tokens)}</span> : <span key={key}>{text.text}</span>
			}
			case 'escape':
				return <span key={key}>{(token as Tokens.Escape).text}</span>
			case 'strong':
				return <strong key={key}>{inline((token as Tokens.Strong).tokens)}</strong>
			case 'em':
				return <em key={key}>{inline((token as Tokens.Em).tokens)}</em>
			case 'del':
				return <del key={key}>{inline((token as Tokens.Del).tokens)}</del>
			case 'codespan':
				return <code key={key} className="rounded bg-background/70 px-1 py-0.5 font-mono text-[0.85em]">{(token as Tokens.Codespan).text}</code>
			case 'br':
				return <br key={key} />
			case 'link': {
				const link = token as Tokens.Link
				const href = safeHref(link.href)
				return href ? <a key={key} href={href} target="_blank" rel="noopener noreferrer" className="underline">{inline(link.tokens)}</a> : <span key={key}>{inline(link.tokens)}</span>
			}
			case 'image': {
				const image = token as Tokens.Image
				const href = safeHref(image.href)
				return href ? <a key={key} href={href} target="_blank" rel="noopener noreferrer" className="underline">{image.text || href}</a> : <span key={key}>{image.text}</span>
			}
			default:
				return <span key={key}>{token.raw}</span>
		}
	})
}

/** A fenced block: its language, a copy button, and the highlighted code. */
function CodeBlock({ code, language }: { code: string; language: string }) {
	const { t } = useTranslation()
	const [copied, setCopied] = useState(false)
	const pieces = useMemo(() => highlight(code, language), [code, language])
	return (
		<div className="overflow-hidden rounded-md border bg-background" data-testid="code-block" data-language={language || undefined}>
			<div className="flex items-center justify-between border-b bg-muted/60 px-2 py-1 text-xs text-muted-foreground">
				<span className="font-mono">{language || t('代码')}</span>
				<Button variant="ghost" size="sm" className="h-6 px-2 text-xs" onClick={async () => setCopied(await copyText(code, t))}>
					{copied ? <CheckIcon /> : <CopyIcon />}
					{t('复制代码')}
				</Button>
			</div>
			<pre className="overflow-x-auto p-3 font-mono text-xs leading-relaxed"><code>{pieces.map((piece, index) => (piece.kind ? <span key={index} className={PIECE_CLASSES[piece.kind]}>{piece.text}</span> : piece.text))}</code></pre>
		</div>
	)
}
