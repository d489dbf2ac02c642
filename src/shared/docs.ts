/** `GET /api/docs?path=…`: a page of the repository's documentation, for admins (the console's `/docs`). */
import { z } from 'zod'

export const docsQuerySchema = z.object({
	/** The console path of the page (`guide/tokens.md`); empty for docs/README.md. */
	path: z.string().max(200).optional().default(''),
})

export const docsPageSchema = z.object({
	/** The page's path in the repository (`docs/guide/tokens.md`), which its relative links start from. */
	path: z.string(),
	markdown: z.string(),
})

export type DocsPage = z.infer<typeof docsPageSchema>
