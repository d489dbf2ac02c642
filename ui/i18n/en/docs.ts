/** English texts of ui/features/docs, keyed by the zh source string. */
export const docs: Record<string, string> = {
	'文档首页': 'Documentation home',
	'没有这篇文档。': 'There is no such documentation page.',
}
