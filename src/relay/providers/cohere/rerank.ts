/** The canonical rerank request → Cohere's v1 `/v1/rerank` (documents as plain texts). */
import { documentTexts } from '../../formats/rerank'

export function cohereRerankBody(body: Record<string, unknown>): Record<string, unknown> {
	const fields: Record<string, unknown> = {
		model: body.model,
		query: body.query,
		documents: documentTexts(body.documents),
		top_n: body.top_n,
		return_documents: body.return_documents,
		max_chunks_per_doc: body.max_chunks_per_doc,
	}
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null))
}
