import type { AdminContentView } from '@ui/features/home/admin-content-view'
import { cn } from '@ui/lib/utils'

/** Typography for rendered admin content (the kit has no prose styles). */
export const proseClasses = cn(
	'flex flex-col gap-3 leading-7 break-words',
	'[&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:font-semibold',
	'[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4',
	'[&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6',
	'[&_blockquote]:border-l-4 [&_blockquote]:pl-4 [&_blockquote]:text-muted-foreground',
	'[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-sm',
	'[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
	'[&_img]:max-w-full [&_hr]:my-2 [&_table]:border-collapse [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2',
)

type AdminContentProps = { view: AdminContentView; title: string; className?: string }

/**
 * Home page, about and notice text written by the super admin, as its loader prepared it: an https
 * address in a frame, else sanitised HTML. `title` names the frame for assistive tech.
 */
export function AdminContent({ view, title, className }: AdminContentProps) {
	if ('frame' in view) {
		return <iframe src={view.frame} title={title} className={cn('h-[calc(100svh-8rem)] w-full rounded-md border-0', className)} />
	}
	return <div data-slot="admin-content" className={cn(proseClasses, className)} dangerouslySetInnerHTML={{ __html: view.html }} />
}
