/**
 * The console's tables on TanStack Table v9 (`useTable` with only the features they use, so the first
 * load pays for nothing else). The server pages the rows: the table gets one page and the total
 * (`manualPagination`), and its page changes go back to the page's URL state (`url-state.ts`). Row
 * selection is the library's `RowSelectionState`, owned by the page; the expanded state (detail panels,
 * the channel list's tag rows) is the table's own; columns marked `hideOnMobile` leave the column
 * visibility state under 600 px.
 *
 * A table wider than its page scrolls sideways inside its frame: its first column (with the chevron
 * and checkbox before it) stays put, a column marked `stickyEnd` (the row actions) stays on the right
 * edge, and a shadow says there is more on that side. Columns marked `fold` leave under 1 500 px and
 * long texts are cut with a tooltip (`TruncatedText`), so the usual page fits without scrolling. Rows
 * keep one height: above 600 px nothing in a cell wraps (row actions fold into a menu, `row-actions.tsx`).
 *
 * On a phone a table with `phoneSummary` becomes a list of cards: each row shows its first column with
 * the summary under it, and its row actions; the other columns leave.
 */
import {
	type Cell,
	type CellData,
	columnVisibilityFeature,
	type ColumnDef,
	type ColumnVisibilityState,
	functionalUpdate,
	type Header,
	type PaginationState,
	type Row as TableRowModel,
	type RowData,
	rowExpandingFeature,
	rowPaginationFeature,
	rowSelectionFeature,
	type RowSelectionState,
	type TableFeatures,
	tableFeatures,
	type Updater,
	useTable,
} from '@tanstack/react-table'
import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, ChevronUpIcon } from 'lucide-react'
import { type CSSProperties, Fragment, type ReactNode, useMemo, useRef } from 'react'
import { useNarrowScreen } from '@ui/components/data-table/use-narrow-screen'
import { useTableScroll } from '@ui/components/data-table/use-table-scroll'
import { PAGE_SIZE_OPTIONS } from '@ui/components/data-table/url-state'
import { Button } from '@ui/components/ui/button'
import { Checkbox } from '@ui/components/ui/checkbox'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

declare module '@tanstack/table-core' {
	// Merges with the library's declaration, whose type parameters it must repeat.
	interface ColumnMeta<in out TFeatures extends TableFeatures, in out TData extends RowData, TValue extends CellData = CellData> {
		/** Classes of the column's header and cells. */
		className?: string
		/** Hidden below 600 px, where the table would not fit. */
		hideOnMobile?: boolean
		/** Hidden below 1 500 px: a column of lower priority (its value is in the row's details or card). */
		fold?: boolean
		/** Stays on the right edge while the rest scrolls: the row actions, always within reach. */
		stickyEnd?: boolean
	}
}

const dataTableFeatures = tableFeatures({ rowSelectionFeature, rowExpandingFeature, columnVisibilityFeature, rowPaginationFeature })
type Features = typeof dataTableFeatures

/**
 * A column: `id` is also its test id (`data-column`); a string `header` is a zh source string the
 * table translates; `cell` renders from `row.original`.
 */
export type DataColumn<Row extends RowData> = ColumnDef<Features, Row>
export type { RowSelectionState }

export type PaginationProps = {
	page: number
	pageSize: number
	total: number
	onPageChange: (page: number) => void
	onPageSizeChange: (pageSize: number) => void
}

type DataTableProps<Row extends RowData> = {
	columns: DataColumn<Row>[]
	rows: Row[]
	/** The row's id in the selection and expanded states (and `data-row-key`). */
	rowKey: (row: Row) => string | number
	/** Selected row ids; omit for a table without checkboxes. */
	rowSelection?: RowSelectionState
	onRowSelectionChange?: (selection: RowSelectionState) => void
	/** A detail panel under a row, toggled by a chevron in the first column. */
	renderExpanded?: (row: Row) => ReactNode
	/** Which rows have a panel (all by default): the others get no chevron. */
	canExpand?: (row: Row) => boolean
	/** Rows drawn differently (e.g. tag rows of the channel list). */
	rowClassName?: (row: Row) => string | undefined
	/** What an empty table shows: a text to translate, or an EmptyState. */
	empty?: string | ReactNode
	pagination?: PaginationProps
	/**
	 * The card of a row on a phone (under 600 px): shown under the first column's value, while every
	 * other column but the sticky-end one leaves.
	 */
	phoneSummary?: (row: Row) => ReactNode
}

/** The selection without one row: a deleted row leaves the page's selection state with it. */
export function deselect(selection: RowSelectionState, id: string | number): RowSelectionState {
	return Object.fromEntries(Object.entries(selection).filter(([selectedId]) => selectedId !== String(id)))
}

const EXPAND_COLUMN = 'expand'
const SELECT_COLUMN = 'select'
const NO_SELECTION: RowSelectionState = {}
/** The chevron and checkbox columns' width (w-11): the sticky offsets before the browser measures. */
const CONTROL_COLUMN_PX = 44

/**
 * Rows are opaque (a sticky cell inherits its row's colour, and the cells scrolled under it must not
 * show through): the hover tint is mixed into the page colour rather than laid over it. A page's
 * `rowClassName` colours must be opaque too.
 */
const rowClasses = 'bg-background hover:bg-row-hover data-[state=selected]:bg-muted'
/** One line per row above 600 px: flex rows in cells stay on one line (the table scrolls instead). */
const cellClasses = 'h-12 min-[601px]:[&_.flex-wrap]:flex-nowrap'
const stickyClasses = 'sticky z-10 bg-inherit'
/** The last sticky column casts a shadow over the cells scrolled under it. */
const stickyEdgeClasses = "after:pointer-events-none after:absolute after:inset-y-0 after:right-0 after:w-3 after:translate-x-full after:bg-gradient-to-r after:from-foreground/10 after:to-transparent after:opacity-0 after:transition-opacity group-data-[scrolled-start=true]/table:after:opacity-100"
/** The right-edge column casts its shadow to the left while cells are hidden under it. */
const stickyEndClasses = "sticky right-0 z-10 bg-inherit before:pointer-events-none before:absolute before:inset-y-0 before:left-0 before:w-3 before:-translate-x-full before:bg-gradient-to-l before:from-foreground/10 before:to-transparent before:opacity-0 before:transition-opacity group-data-[scrolled-end=true]/table:before:opacity-100"

type Translate = ReturnType<typeof useTranslation>['t']

function expandColumn<Row extends RowData>(t: Translate): DataColumn<Row> {
	return {
		id: EXPAND_COLUMN,
		header: '',
		meta: { className: 'w-11 min-w-11' },
		cell: ({ row }) => {
			if (!row.getCanExpand()) return null
			const expanded = row.getIsExpanded()
			return (
				<Button variant="ghost" size="icon" className="size-7" aria-label={t(expanded ? '收起' : '展开')} aria-expanded={expanded} onClick={() => row.toggleExpanded()}>
					{expanded ? <ChevronUpIcon /> : <ChevronDownIcon />}
				</Button>
			)
		},
	}
}

function selectColumn<Row extends RowData>(t: Translate): DataColumn<Row> {
	return {
		id: SELECT_COLUMN,
		meta: { className: 'w-11 min-w-11' },
		header: ({ table }) => (
			<Checkbox
				aria-label={t('全选')}
				checked={table.getIsAllPageRowsSelected() ? true : table.getIsSomePageRowsSelected() ? 'indeterminate' : false}
				onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked === true)}
			/>
		),
		cell: ({ row }) => <Checkbox aria-label={t('选择')} checked={row.getIsSelected()} onCheckedChange={(checked) => row.toggleSelected(checked === true)} />,
	}
}

/**
 * Headers and cells are render functions called in the table's own render, not mounted as components
 * (`FlexRender`): pages rebuild their columns on every render, and mounting would remount every cell,
 * losing its state (an open menu, an inline editor), each time.
 */
function renderHeader<Row extends RowData>(header: Header<Features, Row, CellData>, t: Translate) {
	const render = header.column.columnDef.header
	if (typeof render === 'function') return render(header.getContext())
	return render ? t(render) : null
}

function renderCell<Row extends RowData>(cell: Cell<Features, Row, CellData>) {
	const render = cell.column.columnDef.cell
	return typeof render === 'function' ? render(cell.getContext()) : render
}

export function DataTable<Row extends RowData>({ columns: pageColumns, rows, rowKey, rowSelection, onRowSelectionChange, renderExpanded, rowClassName, empty, pagination, phoneSummary, canExpand }: DataTableProps<Row>) {
	// A page past the last one is empty while the list is not: the list's own empty state would mislead.
	const emptyPage = pagination !== undefined && pagination.total > 0
	const { t } = useTranslation()
	const narrow = useNarrowScreen()
	const selectable = rowSelection !== undefined
	const expandable = renderExpanded !== undefined
	const columns = useMemo(() => (phoneSummary ? asPhoneCards(pageColumns, phoneSummary) : pageColumns), [pageColumns, phoneSummary])
	const stickyEnd = columns.some((column) => column.meta?.stickyEnd)
	const allColumns = useMemo(
		() => [...(expandable ? [expandColumn<Row>(t)] : []), ...(selectable ? [selectColumn<Row>(t)] : []), ...columns],
		[columns, expandable, selectable, t],
	)
	const columnVisibility = useMemo<ColumnVisibilityState>(
		() => Object.fromEntries(narrow ? columns.filter((column) => column.meta?.hideOnMobile).map((column) => [column.id, false]) : []),
		[columns, narrow],
	)
	const paging: PaginationState = { pageIndex: (pagination?.page ?? 1) - 1, pageSize: pagination?.pageSize ?? Math.max(1, rows.length) }

	const table = useTable({
		features: dataTableFeatures,
		columns: allColumns,
		data: rows,
		getRowId: (row) => String(rowKey(row)),
		state: { rowSelection: rowSelection ?? NO_SELECTION, columnVisibility, pagination: paging },
		onRowSelectionChange: (updater: Updater<RowSelectionState>) => onRowSelectionChange?.(functionalUpdate(updater, rowSelection ?? NO_SELECTION)),
		enableRowSelection: selectable,
		getRowCanExpand: (row) => expandable && (canExpand?.(row.original) ?? true),
		// A revalidation after an action brings new row objects; open panels stay open.
		autoResetExpanded: false,
		manualPagination: true,
		rowCount: pagination?.total ?? rows.length,
		onPaginationChange: (updater: Updater<PaginationState>) => {
			const next = functionalUpdate(updater, paging)
			if (next.pageSize !== paging.pageSize) pagination?.onPageSizeChange(next.pageSize)
			else if (next.pageIndex !== paging.pageIndex) pagination?.onPageChange(next.pageIndex + 1)
		},
	})
	const visibleColumnCount = table.getVisibleLeafColumns().length
	// The chevron and checkbox columns, then the first column of the page's own.
	const controlColumnCount = (expandable ? 1 : 0) + (selectable ? 1 : 0)
	const stickyCount = columns.length > 0 ? controlColumnCount + 1 : 0
	const estimatedOffsets = useMemo(() => Array.from({ length: stickyCount }, (_, index) => index * CONTROL_COLUMN_PX), [stickyCount])
	const scroller = useRef<HTMLDivElement>(null)
	const { edges, offsets } = useTableScroll(scroller, stickyCount, estimatedOffsets, rows)
	// The server cannot know the width: the class hides the narrow screen's columns from the first
	// paint, before the visibility state (which needs the browser) takes them out.
	const columnClasses = (meta: DataColumn<Row>['meta'], index: number) => cn(
		meta?.hideOnMobile && 'max-[600px]:hidden',
		meta?.fold && 'max-[1500px]:hidden',
		index < stickyCount && stickyClasses,
		// Its shadow reaches past the column: with no column after it (a phone's card list), past the frame, which would scroll sideways.
		index === stickyCount - 1 && visibleColumnCount > stickyCount && stickyEdgeClasses,
		meta?.stickyEnd && stickyEndClasses,
		meta?.className,
	)
	const stickyStyle = (index: number): CSSProperties | undefined => (index < stickyCount ? { left: offsets[index] ?? estimatedOffsets[index] } : undefined)

	return (
		<div className="flex flex-col gap-3">
			<div
				className="group/table relative rounded-md border"
				data-scrolled-start={edges.start}
				data-scrolled-end={edges.end}
			>
				<Table container={{ ref: scroller, className: 'rounded-md' }}>
					<TableHeader>
						{table.getHeaderGroups().map((group) => (
							<TableRow key={group.id} className={rowClasses}>
								{group.headers.map((header, index) => (
									<TableHead key={header.id} data-column={header.column.id} data-sticky={index < stickyCount || undefined} style={stickyStyle(index)} className={columnClasses(header.column.columnDef.meta, index)}>
										{renderHeader(header, t)}
									</TableHead>
								))}
							</TableRow>
						))}
					</TableHeader>
					<TableBody>
						{rows.length === 0 && (
							<TableRow>
								{/* The words wrap: on a phone, one line would widen the table past the screen and cut them off. */}
								<TableCell colSpan={visibleColumnCount} className="h-24 whitespace-normal text-center text-muted-foreground">
									{emptyPage ? t('暂无数据') : typeof empty === 'string' || empty === undefined ? t(empty ?? '暂无数据') : empty}
								</TableCell>
							</TableRow>
						)}
						{table.getRowModel().rows.map((row) => (
							<Fragment key={row.id}>
								<TableRow data-state={row.getIsSelected() ? 'selected' : undefined} data-row-key={row.id} className={cn(rowClasses, rowClassName?.(row.original))}>
									{row.getVisibleCells().map((cell, index) => (
										<TableCell key={cell.id} data-column={cell.column.id} data-sticky={index < stickyCount || undefined} style={stickyStyle(index)} className={cn(cellClasses, columnClasses(cell.column.columnDef.meta, index))}>
											{renderCell(cell)}
										</TableCell>
									))}
								</TableRow>
								{renderExpanded && row.getIsExpanded() && <ExpandedPanel row={row} columnCount={visibleColumnCount} render={renderExpanded} />}
							</Fragment>
						))}
					</TableBody>
				</Table>
				{/* More to the right: a shadow on the frame's edge (or the sticky column's), over the cells and not in their way. */}
				{!stickyEnd && <div aria-hidden className="pointer-events-none absolute inset-y-0 right-0 w-4 rounded-r-md bg-gradient-to-l from-foreground/10 to-transparent opacity-0 transition-opacity group-data-[scrolled-end=true]/table:opacity-100" />}
			</div>
			{pagination && (
				<Pagination
					page={paging.pageIndex + 1}
					pageCount={Math.max(1, table.getPageCount())}
					pageSize={paging.pageSize}
					total={table.getRowCount()}
					canPrevious={table.getCanPreviousPage()}
					canNext={table.getCanNextPage()}
					onPrevious={() => table.previousPage()}
					onNext={() => table.nextPage()}
					onPageSizeChange={(size) => table.setPageSize(size)}
				/>
			)}
		</div>
	)
}

/**
 * Phone cards: the first column's cells carry the summary (shown under 600 px only, so the server's
 * markup suits every width), and the columns between it and the sticky end leave on phones.
 */
function asPhoneCards<Row extends RowData>(columns: DataColumn<Row>[], summary: (row: Row) => ReactNode): DataColumn<Row>[] {
	return columns.map((column, index) => {
		if (column.meta?.stickyEnd) return column
		if (index > 0) return { ...column, meta: { ...column.meta, hideOnMobile: true } }
		const render = column.cell
		return {
			...column,
			cell: (context) => (
				<div className="flex min-w-0 flex-col gap-1">
					<div className="max-[600px]:font-medium">{typeof render === 'function' ? render(context) : render}</div>
					<div className="flex flex-wrap items-center gap-1 whitespace-normal text-xs text-muted-foreground min-[601px]:hidden" data-testid="phone-summary">{summary(context.row.original)}</div>
				</div>
			),
		}
	})
}

function ExpandedPanel<Row extends RowData>({ row, columnCount, render }: { row: TableRowModel<Features, Row>; columnCount: number; render: (row: Row) => ReactNode }) {
	return (
		<TableRow className="hover:bg-transparent">
			<TableCell colSpan={columnCount} className="whitespace-normal bg-muted/30">
				{render(row.original)}
			</TableCell>
		</TableRow>
	)
}

type PaginationControlsProps = {
	page: number
	pageCount: number
	pageSize: number
	total: number
	canPrevious: boolean
	canNext: boolean
	onPrevious: () => void
	onNext: () => void
	onPageSizeChange: (pageSize: number) => void
}

/** Page buttons and the page-size choice (10/20/50/100, remembered per table by useTableUrlState). */
function Pagination({ page, pageCount, pageSize, total, canPrevious, canNext, onPrevious, onNext, onPageSizeChange }: PaginationControlsProps) {
	const { t } = useTranslation()
	return (
		<nav aria-label={t('分页')} className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
			<span>{t('共 {total} 条', { total })}</span>
			<div className="flex items-center gap-2">
				<Select value={String(pageSize)} onValueChange={(value) => onPageSizeChange(Number(value))}>
					<SelectTrigger className="h-8 w-28" aria-label={t('每页条数')}>
						<SelectValue />
					</SelectTrigger>
					<SelectContent>
						{PAGE_SIZE_OPTIONS.map((size) => (
							<SelectItem key={size} value={String(size)}>
								{t('{size} 条/页', { size })}
							</SelectItem>
						))}
					</SelectContent>
				</Select>
				<Button variant="outline" size="icon" className="size-8" aria-label={t('上一页')} disabled={!canPrevious} onClick={onPrevious}>
					<ChevronLeftIcon />
				</Button>
				<span className="tabular-nums">
					{page} / {pageCount}
				</span>
				<Button variant="outline" size="icon" className="size-8" aria-label={t('下一页')} disabled={!canNext} onClick={onNext}>
					<ChevronRightIcon />
				</Button>
			</div>
		</nav>
	)
}
