import { useSyncExternalStore } from 'react'

/** The width under which tables drop their `hideOnMobile` columns (Tailwind's `max-[600px]`). */
const NARROW_SCREEN_QUERY = '(width < 600px)'

function subscribe(onChange: () => void) {
	const query = window.matchMedia(NARROW_SCREEN_QUERY)
	query.addEventListener('change', onChange)
	return () => query.removeEventListener('change', onChange)
}

/**
 * Whether the viewport is narrower than 600 px. False on the server and during hydration (the
 * server cannot know the width, and hydration must match its markup); the real answer follows.
 */
export function useNarrowScreen() {
	return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW_SCREEN_QUERY).matches, () => false)
}
