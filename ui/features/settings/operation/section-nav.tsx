/**
 * A settings tab's section list (operation, system): a column beside the sections on wide screens, a
 * row of links under the header on phones; both stay in view while the page scrolls. A link scrolls
 * its section to the top, and the section at the top of the window is the list's current one. A page
 * opened with a section's id as its hash (`#setting-section-model-ratio`, or the bare id) starts there.
 */
import { type MouseEvent, useEffect, useState } from 'react'
import { settingSectionId } from '@ui/features/settings/option-fields'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

/** `title` is a zh source string, the section's own title. */
export type NavSection = { id: string; title: string }

/** A section is current once its top passes this line, a little below the sticky header. */
const CURRENT_LINE_PX = 140
/** Sub-pixel layouts can leave the last scroll position a little short of the page's end. */
const BOTTOM_TOLERANCE_PX = 2

export function SectionNav({ sections, label }: { sections: readonly NavSection[]; /** zh source string */ label: string }) {
	const { t } = useTranslation()
	const [current, setCurrent] = useState(sections[0]?.id)

	useEffect(() => {
		const hash = decodeURIComponent(window.location.hash.slice(1))
		const section = sections.find((candidate) => hash === candidate.id || hash === settingSectionId(candidate.id))
		if (section) document.getElementById(settingSectionId(section.id))?.scrollIntoView({ block: 'start' })
	}, [sections])

	useEffect(() => {
		function follow() {
			let passed = sections[0]?.id
			for (const section of sections) {
				const element = document.getElementById(settingSectionId(section.id))
				if (element && element.getBoundingClientRect().top <= CURRENT_LINE_PX) passed = section.id
			}
			// The last sections may never reach the line: at the page's end the last one is current.
			const atEnd = window.scrollY > 0 && window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - BOTTOM_TOLERANCE_PX
			setCurrent(atEnd ? sections.at(-1)?.id : passed)
		}
		follow()
		window.addEventListener('scroll', follow, { passive: true })
		return () => window.removeEventListener('scroll', follow)
	}, [sections])

	function jump(event: MouseEvent<HTMLAnchorElement>, id: string) {
		const target = document.getElementById(settingSectionId(id))
		if (!target) return
		// The router owns the URL: scroll without a hash navigation.
		event.preventDefault()
		target.scrollIntoView({ block: 'start' })
		setCurrent(id)
	}

	return (
		<nav aria-label={t(label)} className="sticky top-14 z-10 -mx-1 bg-background/95 px-1 py-2 backdrop-blur lg:top-20 lg:mx-0 lg:self-start lg:bg-transparent lg:p-0 lg:backdrop-blur-none">
			<ul className="flex gap-1 overflow-x-auto lg:flex-col lg:overflow-visible">
				{sections.map((section) => (
					<li key={section.id} className="shrink-0">
						<a
							href={`#${settingSectionId(section.id)}`}
							aria-current={section.id === current ? 'location' : undefined}
							onClick={(event) => jump(event, section.id)}
							className={cn(
								'block rounded-md px-3 py-1.5 text-sm whitespace-nowrap text-muted-foreground lg:whitespace-normal hover:bg-muted hover:text-foreground',
								section.id === current && 'bg-muted font-medium text-foreground',
							)}
						>
							{t(section.title)}
						</a>
					</li>
				))}
			</ul>
		</nav>
	)
}
