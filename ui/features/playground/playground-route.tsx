/** The playground `/playground` (seed 002 §2): try a model in one of the user's groups, billed to the wallet. */
import type { LoaderFunctionArgs } from 'react-router'
import { apiContext } from '@ui/lib/api'
import { listGroups, listModels, type UsableGroups } from '@ui/features/tokens/api'

export { PlaygroundPage as Component } from '@ui/features/playground/playground-page'

export type PlaygroundData = { models: string[]; groups: UsableGroups }

export async function loader({ context }: LoaderFunctionArgs): Promise<PlaygroundData> {
	const api = context.get(apiContext)
	const [models, groups] = await Promise.all([listModels(api).catch(() => undefined), listGroups(api).catch(() => undefined)])
	return {
		models: models?.success ? models.data : [],
		groups: groups?.success ? groups.data : {},
	}
}
