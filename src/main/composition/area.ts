import { ContainerModule, type Bind, type ServiceIdentifier } from 'inversify'
import type { UseCases } from '../../application/use-cases'
import type { Config } from '../config'

/** The identifiers of a constructor's parameters, in order: what the container feeds it with. */
type Dependencies<A extends unknown[]> = { [K in keyof A]: ServiceIdentifier<A[K]> }

/** What a composition module binds with. */
export interface Binder {
  /** The deployment's configuration, for what depends on it (which SMS provider, which hosts may be reached). */
  config: Config
  /** Inversify's own, for a port served by an adapter. */
  bind: Bind
  /**
   * Binds a class (a use case, a service several use cases share) to its constructor, fed with the listed
   * ports and services, built once; answers the class, its identifier.
   */
  service<T, A extends unknown[]>(type: new (...args: A) => T, dependencies: Dependencies<A>): ServiceIdentifier<T>
}

/** A module of bindings for one deployment's configuration. */
export type Module = (config: Config) => ContainerModule

/** Bindings that yield no use cases of their own: adapters and services several areas use. */
export function bindings(define: (binder: Binder) => void): Module {
  return (config) =>
    new ContainerModule(({ bind }) => {
      const service: Binder['service'] = (type, dependencies) => {
        bind(type).toResolvedValue((...args) => new type(...(args as never)), dependencies as never)
        return type
      }
      define({ config, bind, service })
    })
}

/** One area of `UseCases`: the module that binds it, and where its part of the record is found once loaded. */
export interface Area<K extends keyof UseCases> {
  module: Module
  useCases: ServiceIdentifier<UseCases[K]>
}

/**
 * An area's module: `define` binds the area's adapters, services and use cases and answers the area's part
 * of `UseCases`, each use case by its identifier; the type asks for every use case the edges expect, and
 * nothing else names them.
 */
export function area<K extends keyof UseCases>(
  name: K,
  define: (binder: Binder) => { [P in keyof UseCases[K]]: ServiceIdentifier<UseCases[K][P]> },
): Area<K> {
  const useCases: ServiceIdentifier<UseCases[K]> = Symbol.for(`use-cases:${name}`)
  const module = bindings((binder) => {
    const identifiers = define(binder)
    const keys = Object.keys(identifiers) as Array<keyof UseCases[K]>
    binder
      .bind(useCases)
      .toResolvedValue(
        (...instances) => Object.fromEntries(keys.map((key, i) => [key, instances[i]])) as UseCases[K],
        keys.map((key) => identifiers[key]) as never,
      )
  })
  return { module, useCases }
}
