import { resolvePage, type Page, type PageQuery } from '@shared/api'

/** One page of a list: the rows `read` answers for the page's limit and offset, each as `view` shows it, and the count `total` answers. */
export async function readPage<Row, Item>(
	query: PageQuery, read: (limit: number, offset: number) => PromiseLike<Row[]>, total: PromiseLike<{ value: number }[]>, view: (row: Row) => Item,
): Promise<Page<Item>> {
	const { page, pageSize, offset } = resolvePage(query)
	const [rows, [counted]] = await Promise.all([read(pageSize, offset), total])
	return { items: rows.map(view), page, page_size: pageSize, total: counted?.value ?? 0 }
}
