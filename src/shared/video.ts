/**
 * Video generation (`/v1/videos`): the model families whose lengths and sizes Ferry knows, and a
 * video task's request as Ferry keeps it. A video model's ModelPrice is USD per second of the
 * requested length; the pricing page and the task log read that here. Zod-free but for the kept
 * request's schema.
 */
import { z } from 'zod'

export interface VideoFamily {
	/** The lengths it accepts, in seconds; the first is the default. */
	seconds: readonly number[]
	/** The sizes it accepts (`width`x`height`); the first is the default. */
	sizes: readonly string[]
}

/** Sora 2: 4, 8 or 12 seconds; the pro model's tall and wide sizes are its high-resolution ones. */
const SORA: VideoFamily = { seconds: [4, 8, 12], sizes: ['720x1280', '1280x720', '1024x1792', '1792x1024'] }
/** Veo 3 (Gemini API, Vertex AI): 4, 6 or 8 seconds at 720p or 1080p, wide or tall. */
const VEO: VideoFamily = { seconds: [8, 4, 6], sizes: ['1280x720', '720x1280', '1920x1080', '1080x1920'] }
/** Kling: 5 or 10 seconds; its aspect ratios 16:9, 9:16 and 1:1 as sizes. */
const KLING: VideoFamily = { seconds: [5, 10], sizes: ['1280x720', '720x1280', '1024x1024'] }

const FAMILIES: readonly [prefix: string, family: VideoFamily][] = [['sora', SORA], ['veo', VEO], ['kling', KLING]]

/** The family of a model name Ferry knows as a video model; undefined for any other name. */
export function videoFamily(model: string): VideoFamily | undefined {
	const name = model.toLowerCase()
	return FAMILIES.find(([prefix]) => name.startsWith(prefix))?.[1]
}

/** Whether a model's ModelPrice is per second of video (the pricing page's unit). */
export const isVideoModel = (model: string) => videoFamily(model) !== undefined

/** A video task's request as Ferry keeps it (the task's `properties`). */
export const videoPropertiesSchema = z.object({
	prompt: z.string().catch(''),
	model: z.string().catch(''),
	seconds: z.number().catch(0),
	size: z.string().catch(''),
	/** Ferry's id of the video a remix started from. */
	remixed_from_video_id: z.string().nullable().catch(null),
	/** Set once the caller deleted it: reads then answer 404. */
	deleted: z.boolean().optional().catch(undefined),
})
export type VideoProperties = z.infer<typeof videoPropertiesSchema>

/** The kept request of a task's `properties` text (defaults for what is missing or malformed). */
export function readVideoProperties(text: string): VideoProperties {
	let value: unknown = {}
	try {
		value = text ? JSON.parse(text) : {}
	} catch {
		// malformed: the defaults
	}
	return videoPropertiesSchema.parse(typeof value === 'object' && value !== null ? value : {})
}
