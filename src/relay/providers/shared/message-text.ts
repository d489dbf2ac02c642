/** The text of an OpenAI-format message's content: a string, or the text parts of a list joined by newlines. */
export function messageText(content: unknown): string {
	if (typeof content === 'string') return content
	if (!Array.isArray(content)) return ''
	return content
		.filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
		.map((part) => part.text)
		.join('\n')
}
