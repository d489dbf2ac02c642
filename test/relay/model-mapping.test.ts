/** The rules of a channel's `model_mapping` (src/shared/model-mapping.ts) as the relay applies them. */
import { describe, expect, test } from 'bun:test'
import { findModelMappingCycle, followModelMapping } from '@shared/model-mapping'
import { mappingServes, ModelMappingCycleError, upstreamModel } from '@/relay/upstream/model-mapping'

describe('a model mapping', () => {
	test('follows a chain to its end, and leaves an unmapped model as it is', () => {
		const mapping = { a: 'b', b: 'c' }
		expect(upstreamModel(mapping, 'a')).toBe('c')
		expect(upstreamModel(mapping, 'b')).toBe('c')
		expect(upstreamModel(mapping, 'z')).toBe('z')
	})

	test('treats a model mapped to itself, or to nothing, as not mapped, also at the end of a chain', () => {
		const mapping = { 'gpt-4o': 'gpt-4o', a: 'b', b: 'b', c: '' }
		expect(upstreamModel(mapping, 'gpt-4o')).toBe('gpt-4o')
		expect(upstreamModel(mapping, 'a')).toBe('b')
		expect(upstreamModel(mapping, 'c')).toBe('c')
		expect(findModelMappingCycle(mapping)).toBeUndefined()
		expect(mappingServes(mapping, 'gpt-4o')).toBe(true)
	})

	test('reports a real cycle as the loop it runs into, for the models that reach it', () => {
		const mapping = { start: 'a', a: 'b', b: 'a', fine: 'done' }
		expect(followModelMapping(mapping, 'start')).toEqual({ cycle: ['a', 'b', 'a'] })
		expect(() => upstreamModel(mapping, 'start')).toThrow(ModelMappingCycleError)
		expect(mappingServes(mapping, 'b')).toBe(false)
		expect(mappingServes(mapping, 'fine')).toBe(true)
		expect(findModelMappingCycle(mapping)).toEqual(['a', 'b', 'a'])
	})

	test('finds the loop at the end of a chain of twenty thousand names, and none in the same chain without it', () => {
		const length = 20_000
		const chain: Record<string, string> = Object.fromEntries(Array.from({ length }, (_, index) => [`m${index}`, `m${index + 1}`]))
		expect(findModelMappingCycle(chain)).toBeUndefined()
		expect(upstreamModel(chain, 'm0')).toBe(`m${length}`)
		expect(findModelMappingCycle({ ...chain, [`m${length}`]: `m${length - 1}` })).toEqual([`m${length - 1}`, `m${length}`, `m${length - 1}`])
	})
})
