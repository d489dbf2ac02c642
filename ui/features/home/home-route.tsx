export { HomePage as Component, homeLoader as loader } from '@ui/features/home'
