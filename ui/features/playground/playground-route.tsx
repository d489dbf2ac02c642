/** The playground `/playground` (docs/specification/playground-and-chat.md#the-playground): try a model in one of the user's groups, billed to the wallet. */
import type { LoaderFunctionArgs } from 'react-router'
import type { UnpricedModels } from '@shared/channel'
import { apiContext } from '@ui/lib/api'
import { isAdmin, loadSelf } from '@ui/lib/session'
import { listGroups, listModels, type UsableGroups } from '@ui/features/tokens/api'

export { PlaygroundPage as Component } from '@ui/features/playground/playground-page'

export type PlaygroundData = {
	models: string[]
	groups: UsableGroups
	/** For admins: models the channels offer without a price (left out of `models`), to say so. */
	unpricedModels: string[]
}

export async function loader({ context }: LoaderFunctionArgs): Promise<PlaygroundData> {
	const api = context.get(apiContext)
	const [models, groups, self] = await Promise.all([listModels(api).catch(() => undefined), listGroups(api).catch(() => undefined), loadSelf(api)])
	const unpriced = isAdmin(self) ? await api.get<UnpricedModels>('/api/channel/unpriced_models').catch(() => undefined) : undefined
	return {
		models: models?.success ? models.data : [],
		groups: groups?.success ? groups.data : {},
		unpricedModels: unpriced?.success ? unpriced.data.models : [],
	}
}
