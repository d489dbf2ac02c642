/**
 * What a loader hands its page for a piece of admin content (home page, about, notice): an https
 * address to show in a frame (as the peers do), or the content rendered as sanitised HTML. Rendering
 * happens in the loader, so the Markdown converter is a chunk of its own: on the server it renders the
 * page, in the browser it loads only when a navigation brings new content, never with a first load.
 */
export type AdminContentView = { frame: string } | { html: string }

function isFrameAddress(content: string) {
	return /^https:\/\/\S+$/.test(content.trim())
}

/** Null for empty content. */
export async function viewAdminContent(content: string): Promise<AdminContentView | null> {
	if (!content.trim()) return null
	if (isFrameAddress(content)) return { frame: content.trim() }
	const { renderMarkdown } = await import('@ui/features/home/markdown')
	return { html: renderMarkdown(content) }
}
