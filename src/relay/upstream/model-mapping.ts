/**
 * A channel's `model_mapping` as the relay applies it (rules in src/shared/model-mapping.ts):
 * chains are followed, a self-mapping is no mapping, and a cycle means the channel cannot serve
 * that model.
 */
import { describeCycle, followModelMapping } from '@shared/model-mapping'

export class ModelMappingCycleError extends Error {}

export function upstreamModel(mapping: Record<string, string>, model: string): string {
	// Most channels map nothing for most models: then there is no chain to follow.
	if (!Object.hasOwn(mapping, model)) return model
	const outcome = followModelMapping(mapping, model)
	if (outcome.cycle) throw new ModelMappingCycleError(`model mapping of ${model} loops through ${describeCycle(outcome.cycle)}`)
	return outcome.model
}

/** Whether the mapping gives `model` an upstream name (no cycle). */
export const mappingServes = (mapping: Record<string, string>, model: string) => followModelMapping(mapping, model).cycle === undefined
